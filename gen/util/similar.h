/* How far apart two names are, for "did you mean" hints and for matching
 * a page's misspelt field name to the header's. */
#ifndef DDIGEN_SIMILAR_H
#define DDIGEN_SIMILAR_H

/* Edits (insert, delete, replace; case ignored) from a to b; 99 when
 * either is longer than 63 bytes. */
unsigned similar_distance(const char *a, const char *b);

#endif
