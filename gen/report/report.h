/* `ddigen report SPEC [--previous OLD.xml] [--lint lint.sarif]
 * [--docs-root URL] -o DIR`: a static HTML site of the spec (see
 * docs/ARCHITECTURE.md, "gen/report"). */
#ifndef DDIGEN_REPORT_H
#define DDIGEN_REPORT_H

int ddigen_cmd_report(int argc, char **argv);
/* `ddigen history SPEC... -o DIR`: one timeline over specs oldest to newest. */
int ddigen_cmd_history(int argc, char **argv);

#endif
