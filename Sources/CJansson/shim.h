#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H
#include <jansson.h>
#endif
