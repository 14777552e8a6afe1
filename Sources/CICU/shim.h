#ifndef CICU_SHIM_H
#define CICU_SHIM_H
#include <unicode/ubrk.h>
#include <unicode/uscript.h>
#include <unicode/uchar.h>
#include <unicode/ubidi.h>
#include <string.h>

/* ICU renames its C functions per version (ubrk_open_72 …) with macros Swift cannot see
   through; these wrappers call them by their stable names. */

/** A line break iterator (UAX #14 with CSS `line-break: normal`, Chromium's default: a break is allowed
    before small kana and the prolonged sound mark) over `text`, or NULL. */
static inline UBreakIterator *scrollstack_line_breaker(const UChar *text, int32_t length, UErrorCode *status) {
    return ubrk_open(UBRK_LINE, "en@lb=normal", text, length, status);
}

/** Points `iterator` at new text (kept by the caller while iterating). */
static inline void scrollstack_set_text(UBreakIterator *iterator, const UChar *text, int32_t length, UErrorCode *status) {
    ubrk_setText(iterator, text, length, status);
}

/** The next break opportunity, or UBRK_DONE (-1). */
static inline int32_t scrollstack_next_break(UBreakIterator *iterator) {
    return ubrk_next(iterator);
}

static inline void scrollstack_close_breaker(UBreakIterator *iterator) {
    ubrk_close(iterator);
}
/** The script of `c` (USCRIPT_COMMON, USCRIPT_INHERITED, USCRIPT_LATIN …). */
static inline int32_t scrollstack_script(UChar32 c) {
    UErrorCode status = U_ZERO_ERROR;
    UScriptCode code = uscript_getScript(c, &status);
    return U_FAILURE(status) ? USCRIPT_COMMON : (int32_t)code;
}

/** The ISO 15924 code of `script` ("Latn"), or NULL. */
static inline const char *scrollstack_script_tag(int32_t script) {
    return uscript_getShortName((UScriptCode)script);
}
/** 1 for an opening paired bracket, 2 for a closing one, 0 otherwise (Bidi_Paired_Bracket_Type). */
static inline int32_t scrollstack_bracket_type(UChar32 c) {
    return u_getIntPropertyValue(c, UCHAR_BIDI_PAIRED_BRACKET_TYPE);
}

/** The bracket `c` pairs with (`c` itself when it pairs with none). */
static inline UChar32 scrollstack_paired_bracket(UChar32 c) {
    return u_getBidiPairedBracket(c);
}

/** The embedding level of each of `length` units of `text`, one paragraph of base direction
    left to right (CSS `direction: ltr`), by the Unicode Bidirectional Algorithm, written to
    `levels`; returns 1, or 0 when every level is 0 (nothing runs right to left) or ICU fails. */
static inline int32_t scrollstack_bidi_levels(const UChar *text, int32_t length, uint8_t *levels) {
    UErrorCode status = U_ZERO_ERROR;
    UBiDi *bidi = ubidi_openSized(length, 0, &status);
    if (U_FAILURE(status) || bidi == NULL) return 0;
    ubidi_setPara(bidi, text, length, UBIDI_LTR, NULL, &status);
    int32_t found = 0;
    if (U_SUCCESS(status) && ubidi_getDirection(bidi) != UBIDI_LTR) {
        const UBiDiLevel *got = ubidi_getLevels(bidi, &status);
        if (U_SUCCESS(status) && got != NULL) {
            memcpy(levels, got, (size_t)length);
            found = 1;
        }
    }
    ubidi_close(bidi);
    return found;
}
#endif
