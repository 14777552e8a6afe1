#ifndef CJANSSON_SHIM_H
#define CJANSSON_SHIM_H
#include <stdio.h>
#include <jansson.h>

/* snprintf(buffer, size, "%.*g", precision, value): a real as jansson formats it. Swift cannot
   call the variadic snprintf, and withVaList allocates a builder per call. */
static inline int cjansson_format_real(char *buffer, size_t size, int precision, double value) {
    return snprintf(buffer, size, "%.*g", precision, value);
}
#endif
