/* A reference page's YAML front matter: the few keys the model needs.
 *
 * Two readers give the same values. The plain reader takes the shape the
 * docs repository writes (flat "key: value" lines, block sequences of
 * scalars, one-line flow sequences of quoted strings) in one pass over the
 * bytes, and declines anything else; libyaml reads what it declines, so an
 * unusual but valid page is read the same and an invalid one gets libyaml's
 * error. libyaml cost a quarter of `ddigen docs` (about 200 instructions
 * per byte of front matter) for text that is nearly always this shape. */
#ifndef DDIGEN_DOCS_FRONT_MATTER_H
#define DDIGEN_DOCS_FRONT_MATTER_H

#include "model.h"

#include <stdbool.h>
#include <stddef.h>

struct fm_values {
    const char *uid, *title, *description, *header, *typenames, *client, *server, *api_last;
    const char *irql; /* req.irql as written, for the skeleton (pageable only at PASSIVE_LEVEL) */
    unsigned description_line, avail_line;
};

/* Reads the front matter (the text between the '---' lines; page line 2 is
 * its first line) into the page; a YAML error is reported on the page's file
 * and leaves the page as it was. */
void docs_read_front_matter(struct docs_page *page, const char *fm, size_t len);

/* The two readers, for tests. fm_read_plain returns false, with v in an
 * unspecified state, when the text is not in the plain shape. fm_read_yaml
 * returns 0, -1 on a YAML error (line of the page and libyaml's problem in
 * err) or -2 when the root is not a mapping. Strings go to the arena. */
bool fm_read_plain(const char *fm, size_t len, struct arena *a, struct fm_values *v);
int fm_read_yaml(const char *fm, size_t len, struct arena *a, struct fm_values *v, unsigned *err_line,
                 char *err, size_t err_size);

#endif
