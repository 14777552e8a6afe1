#ifndef CCAIRO_SHIM_H
#define CCAIRO_SHIM_H
#include <cairo.h>
#include <cairo-ft.h>
#include <pixman.h>
#include <ft2build.h>
#include FT_FREETYPE_H
#endif
