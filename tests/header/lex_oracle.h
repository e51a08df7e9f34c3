/* Differential check of gen/header/lex.c against clang_tokenize. */
#ifndef DDIGEN_TESTS_LEX_ORACLE_H
#define DDIGEN_TESTS_LEX_ORACLE_H

#include "util/clang_api.h"
#include <stddef.h>

/* 0 when lex.c and clang_tokenize give the same tokens for file (whose
 * bytes are text[0, size)) in tu; else 1, with the first difference on
 * stderr under name; -1 when out of memory. */
int lex_compare(CXTranslationUnit tu, CXFile file, const char *name, const char *text, size_t size);

#endif
