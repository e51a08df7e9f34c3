/* SVG byte maps (issue 29): a record's bytes on one architecture, one row
 * per 8 bytes (16 when the record is over 256 bytes), each named field a
 * labelled box, bit-fields as boxes of their bits inside their unit, the
 * members of a union stacked in lanes, and every bit no field covers
 * hatched as padding. The layout can differ by version (a field added in
 * WDDM 2.1 moves nothing but exists only there; a record may grow), so the
 * versions are grouped by identical layout and each group gets its own
 * SVG, marked with the version indexes it stands for; the page's script
 * shows the one of the selected version. Geometry is plain integers, so
 * the output is the same bytes on every run. */
#include "site.h"

#include <stdlib.h>
#include <string.h>

#define MAP_X0 56      /* left margin: the row's offset */
#define MAP_WIDTH 896  /* the bytes of a row */
#define LANE_H 20
#define ROW_GAP 4
#define MAX_MAP_BYTES 65536 /* a bigger record is listed, not drawn */

/* A field's width in bits at (arch, version), 0 when it has none to draw
 * (a flexible array, an unknown type). */
static long field_bits(const struct ddi_model_field *f, unsigned arch, int version)
{
    if (f->bitfield)
        return f->bits;
    struct ddi_type_fact t = ddi_model_fact(f, (int)arch, version);
    long bytes = t.bytes;
    const struct ddi_model_record *of = f->nested ? f->nested : f->type_record;
    if (!bytes && of) {
        const struct ddi_model_measure *m = ddi_model_measure_at(&of->sizes[arch], version);
        bytes = m ? m->value : 0;
    }
    long count = 1;
    if (f->array) {
        if (!strcmp(f->array, "flexible"))
            return 0;
        for (const char *p = f->array; *p;) {
            char *end;
            long n = strtol(p, &end, 10);
            if (end == p) {
                p++;
                continue;
            }
            count *= n;
            p = end;
        }
    }
    return bytes * count * 8;
}

/* A field drawn: named, without an inline record of its own (those are
 * drawn through their members), existing at (arch, version). */
static int drawn_at(const struct ddi_model_field *f, unsigned arch, int version)
{
    return f->name && f->name[0] && !f->nested && ddi_vset_has(f->eff_versions, version) &&
           (f->eff_archs >> arch & 1) && ddi_model_offset(f, (int)arch, version) >= 0;
}

/* What decides the picture at a version: the size and every drawn
 * field's place and width. */
static char *layout_signature(const struct ddi_model_record *r, unsigned arch, int version)
{
    const struct ddi_model_measure *size = ddi_model_measure_at(&r->sizes[arch], version);
    struct strbuf sb = {0};
    sb_printf(&sb, "%ld", size->value);
    for (size_t i = 0; i < r->nall; i++) {
        const struct ddi_model_field *f = r->all[i];
        if (drawn_at(f, arch, version))
            sb_printf(&sb, " %zu:%ld:%ld", i, ddi_model_offset(f, (int)arch, version), field_bits(f, arch, version));
    }
    return sb.data; /* the caller frees it */
}

/* A piece of a field within one row, in bits from the row's start. */
struct segment {
    const struct ddi_model_field *f;
    long row, from, to; /* [from, to) */
    int lane, first;
};

static int overlaps(const struct segment *a, const struct segment *b)
{
    return a->row == b->row && a->from < b->to && b->from < a->to;
}

/* Each segment in the lowest lane of its row where it overlaps nothing:
 * the members of a union fall into lanes one under the other. */
static int assign_lanes(struct segment *seg, size_t n, long rows, int *lanes_of_row)
{
    int most = 1;
    for (long r = 0; r < rows; r++)
        lanes_of_row[r] = 1;
    for (size_t i = 0; i < n; i++) {
        int lane = 0;
        for (int again = 1; again;) {
            again = 0;
            for (size_t j = 0; j < i; j++)
                if (seg[j].lane == lane && overlaps(&seg[i], &seg[j])) {
                    lane++;
                    again = 1;
                    break;
                }
        }
        seg[i].lane = lane;
        if (lane + 1 > lanes_of_row[seg[i].row])
            lanes_of_row[seg[i].row] = lane + 1;
        if (lane + 1 > most)
            most = lane + 1;
    }
    return most;
}

/* The label that fits in w pixels (7 px a character of the monospace
 * font): the whole designator (Transfer.hAllocation: the members of a
 * union say which one they belong to), else its last name, cut short
 * with an ellipsis, or nothing in a box too narrow for two characters. */
static void fitted_label(struct strbuf *sb, const char *path, long w)
{
    const char *last = strrchr(path, '.');
    long fits = (w - 4) / 7;
    const char *name = (long)strlen(path) <= fits || !last ? path : last + 1;
    size_t len = strlen(name);
    if (fits < 2)
        return;
    if ((long)len <= fits) {
        html_escape(sb, name);
        return;
    }
    char *cut = strndup(name, (size_t)fits - 1);
    html_escape(sb, cut);
    sb_append(sb, "\xe2\x80\xa6"); /* ... */
    free(cut);
}

/* The change classes of a field with --previous ("ch-moved" ...). */
static const char *change_class(struct site *s, const struct ddi_model_record *r, const struct ddi_model_field *f)
{
    struct vec *v = s->changes ? strmap_get(&s->changes_of_record, r->name) : NULL;
    if (!v)
        return "";
    const char *label = arena_concat(&s->a, r->name, ".", f->path, NULL);
    struct strbuf sb = {0};
    for (size_t i = 0; i < v->len; i++) {
        const struct diff_change *c = v->items[i];
        if (strcmp(c->item, label) != 0)
            continue;
        const char *cls = !strcmp(c->change, "added")            ? " ch-added"
                          : !strcmp(c->change, "layout changed") ? " ch-moved"
                          : !strcmp(c->change, "type changed")   ? " ch-grown"
                                                                 : " ch-changed";
        if (!strstr(sb_str(&sb), cls))
            sb_append(&sb, cls);
    }
    const char *out = arena_strdup(&s->a, sb_str(&sb));
    sb_free(&sb);
    return out;
}

static void draw_padding(struct strbuf *sb, const unsigned char *covered, long total_bits, long row_bits,
                         const long *row_y, const int *lanes_of_row, long bit_w)
{
    for (long b = 0; b < total_bits;) {
        if (covered[b]) {
            b++;
            continue;
        }
        long row = b / row_bits, end = b;
        while (end < total_bits && !covered[end] && end / row_bits == row)
            end++;
        sb_printf(sb, "<rect class=\"pad\" data-offset-bits=\"%ld\" data-bits=\"%ld\" x=\"%ld\" y=\"%ld\" width=\"%ld\" "
                      "height=\"%d\"><title>padding: %ld bit%s</title></rect>\n",
                  b, end - b, MAP_X0 + (b % row_bits) * bit_w, row_y[row], (end - b) * bit_w,
                  lanes_of_row[row] * LANE_H, end - b, end - b == 1 ? "" : "s");
        b = end;
    }
}

static void draw_segment(struct strbuf *sb, const struct segment *g, const long *row_y, long bit_w)
{
    long x = MAP_X0 + g->from * bit_w, w = (g->to - g->from) * bit_w;
    long y = row_y[g->row] + g->lane * LANE_H;
    sb_printf(sb, "<rect data-row=\"%ld\" x=\"%ld\" y=\"%ld\" width=\"%ld\" height=\"%d\"/>", g->row, x, y, w,
              LANE_H - 2);
    sb_printf(sb, "<text x=\"%ld\" y=\"%ld\">", x + 3, y + LANE_H - 7);
    fitted_label(sb, g->f->path, w);
    sb_append(sb, "</text>");
}

/* One SVG: the record at version (the first of group), for every version of group. */
static void draw_map(struct site *s, struct strbuf *sb, const struct ddi_model_record *r, unsigned arch, int version,
                     ddi_vset group)
{
    long size = ddi_model_measure_at(&r->sizes[arch], version)->value;
    long row_bytes = size > 256 ? 16 : 8, row_bits = row_bytes * 8, bit_w = MAP_WIDTH / row_bits;
    long rows = size ? (size + row_bytes - 1) / row_bytes : 1;
    sb_printf(sb, "<svg class=\"bytemap\" data-arch=\"%s\" data-versions=\"", s->m->where.arch[arch]);
    for (int v = 0; v < 64; v++)
        if (ddi_vset_has(group, v))
            sb_printf(sb, " %d", v);
    sb_printf(sb, " \" data-size=\"%ld\" data-row-bytes=\"%ld\" data-x0=\"%d\" data-bit-width=\"%ld\"", size,
              row_bytes, MAP_X0, bit_w);
    if (size > MAX_MAP_BYTES) {
        sb_append(sb, " width=\"0\" height=\"0\"></svg>\n<p class=\"nomap\">Too large to draw.</p>\n");
        return;
    }
    /* the segments of every drawn field, in document order */
    struct segment *seg = NULL;
    size_t nseg = 0, cap = 0;
    unsigned char *covered = calloc((size_t)(size * 8 + 1), 1);
    for (size_t i = 0; i < r->nall; i++) {
        const struct ddi_model_field *f = r->all[i];
        if (!drawn_at(f, arch, version))
            continue;
        long at = ddi_model_offset(f, (int)arch, version), bits = field_bits(f, arch, version);
        long end = at + bits > size * 8 ? size * 8 : at + bits;
        for (long b = at; b < end; b++)
            covered[b] = 1;
        for (long b = at, first = 1; b < end; first = 0) {
            long row = b / row_bits, to = (row + 1) * row_bits < end ? (row + 1) * row_bits : end;
            if (nseg == cap)
                seg = realloc(seg, (cap = cap ? cap * 2 : 64) * sizeof *seg);
            seg[nseg++] = (struct segment){f, row, b - row * row_bits, to - row * row_bits, 0, (int)first};
            b = to;
        }
    }
    int *lanes_of_row = calloc((size_t)rows, sizeof *lanes_of_row);
    long *row_y = calloc((size_t)rows + 1, sizeof *row_y);
    assign_lanes(seg, nseg, rows, lanes_of_row);
    long y = 20;
    for (long row = 0; row < rows; row++) {
        row_y[row] = y;
        y += lanes_of_row[row] * LANE_H + ROW_GAP;
    }
    sb_printf(sb, " width=\"%d\" height=\"%ld\" viewBox=\"0 0 %d %ld\">\n", MAP_X0 + MAP_WIDTH + 8, y,
              MAP_X0 + MAP_WIDTH + 8, y);
    for (long b = 0; b < row_bytes; b++)
        sb_printf(sb, "<text class=\"col\" x=\"%ld\" y=\"14\">+%lX</text>", MAP_X0 + b * 8 * bit_w + 3, b);
    sb_append(sb, "\n");
    for (long row = 0; row < rows; row++)
        sb_printf(sb, "<text class=\"off\" x=\"2\" y=\"%ld\">0x%04lX</text>\n", row_y[row] + LANE_H - 7,
                  row * row_bytes);
    draw_padding(sb, covered, size * 8, row_bits, row_y, lanes_of_row, bit_w);
    for (size_t i = 0; i < nseg; i++) {
        if (!seg[i].first)
            continue;
        const struct ddi_model_field *f = seg[i].f;
        long at = ddi_model_offset(f, (int)arch, version), bits = field_bits(f, arch, version);
        sb_printf(sb, "<g class=\"fld%s%s\" data-path=\"", f->bitfield ? " bits" : "", change_class(s, r, f));
        html_escape(sb, f->path);
        sb_printf(sb, "\" data-offset=\"%ld\" data-offset-bits=\"%ld\" data-bits=\"%ld\"><title>", at / 8, at, bits);
        html_escape(sb, f->path);
        sb_append(sb, ": ");
        html_escape(sb, f->type);
        if (f->bitfield)
            sb_printf(sb, " : %d at byte 0x%lX bit %ld", f->bits, at / 8, at % 8);
        else
            sb_printf(sb, " at 0x%lX, %ld bytes", at / 8, bits / 8);
        sb_append(sb, "</title>");
        for (size_t j = i; j < nseg && seg[j].f == f; j++)
            draw_segment(sb, &seg[j], row_y, bit_w);
        sb_append(sb, "</g>\n");
    }
    sb_append(sb, "</svg>\n");
    free(seg);
    free(covered);
    free(lanes_of_row);
    free(row_y);
}

void report_bytemaps(struct site *s, struct strbuf *sb, const struct ddi_model_record *r, unsigned arch)
{
    int nversions = (int)s->m->where.n;
    char *sig[DDI_VSET_MAX] = {0};
    for (int v = 0; v < nversions; v++)
        if (ddi_vset_has(r->versions, v) && (r->archs >> arch & 1) && ddi_model_measure_at(&r->sizes[arch], v))
            sig[v] = layout_signature(r, arch, v);
    ddi_vset done = 0;
    for (int v = 0; v < nversions; v++) {
        if (!sig[v] || ddi_vset_has(done, v))
            continue;
        ddi_vset group = 0;
        for (int w = v; w < nversions; w++)
            if (sig[w] && !strcmp(sig[w], sig[v]))
                group |= (ddi_vset)1 << w;
        done |= group;
        draw_map(s, sb, r, arch, v, group);
    }
    for (int v = 0; v < nversions; v++)
        free(sig[v]);
}
