/* A header whose include cannot be found: ingestion must stop with file:line. */
typedef unsigned int UINT;
#include "no_such_header.h"
typedef struct _AFTER { UINT x; } AFTER;
