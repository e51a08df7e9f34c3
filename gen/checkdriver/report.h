/* check-driver's findings as gcc-style text and as SARIF 2.1.0 (through
 * the one SARIF writer, util/sarif.h). */
#ifndef DDIGEN_CHECKDRIVER_REPORT_H
#define DDIGEN_CHECKDRIVER_REPORT_H

#include "compare.h"

/* Both 0, or -1 (reported); path "-" is stdout. */
int cd_write_text(const struct cd_findings *f, const char *path);
int cd_write_sarif(const struct cd_findings *f, const char *path, const char *tool_version);

#endif
