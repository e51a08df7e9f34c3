/* Code segments from pragma and __declspec tokens; see segments.h. */
#include "segments.h"

#include <stdlib.h>
#include <string.h>

/* A #pragma code_seg changes the segment from its offset on. */
struct seg_event {
    unsigned offset;
    const char *segment; /* NULL: back to the default */
};

struct file_segments {
    struct strmap alloc_text; /* function name -> segment */
    struct seg_event *events;
    size_t nevents;
};

void segment_index_init(struct segment_index *ix, CXTranslationUnit tu, const struct sal_index *sal)
{
    memset(ix, 0, sizeof *ix);
    ix->tu = tu;
    ix->sal = sal;
}

void segment_index_free(struct segment_index *ix)
{
    for (size_t i = 0; i < ix->files.cap; i++) {
        struct file_segments *f = ix->files.slots ? ix->files.slots[i].value : NULL;
        if (f)
            strmap_free(&f->alloc_text);
    }
    strmap_free(&ix->files);
    arena_free(&ix->arena);
}

/* "PAGE" -> PAGE; an identifier stays as it is. */
static const char *segment_name(struct arena *a, const char *token)
{
    size_t n = strlen(token);
    if (n >= 2 && token[0] == '"' && token[n - 1] == '"')
        return arena_strndup(a, token + 1, n - 2);
    return arena_strdup(a, token);
}

static int is_string(const char *token)
{
    return token[0] == '"';
}

struct pragma {
    const char *name;  /* alloc_text, code_seg */
    const char **args; /* tokens between the parentheses, commas dropped */
    unsigned nargs, offset;
};

/* Reads `# pragma NAME ( args )` at token i; returns the index after it. */
static unsigned read_pragma(struct arena *a, const struct source_tokens *t, unsigned i, struct pragma *p)
{
    memset(p, 0, sizeof *p);
    unsigned end = i + 1;
    while (end < t->count && t->in_directive[end] && strcmp(t->text[end], "#"))
        end++;
    if (end - i < 4 || strcmp(t->text[i + 1], "pragma") || strcmp(t->text[i + 3], "("))
        return end;
    p->name = t->text[i + 2];
    p->offset = t->offsets[i];
    p->args = arena_alloc(a, (end - i) * sizeof *p->args);
    for (unsigned k = i + 4; k < end && strcmp(t->text[k], ")"); k++)
        if (strcmp(t->text[k], ","))
            p->args[p->nargs++] = t->text[k];
    return end;
}

static int skipped(const CXSourceRangeList *ranges, unsigned offset)
{
    for (unsigned i = 0; ranges && i < ranges->count; i++) {
        unsigned from, to;
        clang_getSpellingLocation(clang_getRangeStart(ranges->ranges[i]), NULL, NULL, NULL, &from);
        clang_getSpellingLocation(clang_getRangeEnd(ranges->ranges[i]), NULL, NULL, NULL, &to);
        if (offset >= from && offset <= to)
            return 1;
    }
    return 0;
}

/* code_seg("S"), code_seg(), code_seg(push[, id][, "S"]), code_seg(pop[, id]). */
static void code_seg(struct segment_index *ix, struct vec *stack, const struct pragma *p, const char **current)
{
    if (p->nargs && !strcmp(p->args[0], "push")) {
        vec_push(stack, (void *)*current);
        if (is_string(p->args[p->nargs - 1]))
            *current = segment_name(&ix->arena, p->args[p->nargs - 1]);
    } else if (p->nargs && !strcmp(p->args[0], "pop")) {
        *current = stack->len ? stack->items[--stack->len] : NULL;
    } else {
        *current = p->nargs && is_string(p->args[0]) ? segment_name(&ix->arena, p->args[0]) : NULL;
    }
}

static struct file_segments *read_file(struct segment_index *ix, const struct source_tokens *t)
{
    struct file_segments *f = arena_alloc(&ix->arena, sizeof *f);
    f->events = arena_alloc(&ix->arena, (t->count + 1) * sizeof *f->events);
    CXFile file = clang_getFile(ix->tu, t->path);
    CXSourceRangeList *ranges = file ? clang_getSkippedRanges(ix->tu, file) : NULL;
    struct vec stack = {0};
    const char *current = NULL;
    for (unsigned i = 0; i < t->count;) {
        if (!t->in_directive[i] || strcmp(t->text[i], "#")) {
            i++;
            continue;
        }
        struct pragma p;
        i = read_pragma(&ix->arena, t, i, &p);
        if (!p.name || skipped(ranges, p.offset))
            continue;
        if (!strcmp(p.name, "alloc_text") && p.nargs >= 2) {
            const char *segment = segment_name(&ix->arena, p.args[0]);
            for (unsigned k = 1; k < p.nargs; k++)
                strmap_put(&f->alloc_text, p.args[k], (void *)segment);
        } else if (!strcmp(p.name, "code_seg")) {
            code_seg(ix, &stack, &p, &current);
            f->events[f->nevents++] = (struct seg_event){p.offset, current};
        }
    }
    vec_free(&stack);
    if (ranges)
        clang_disposeSourceRangeList(ranges);
    return f;
}

/* __declspec(code_seg("S")) among the declaration's leading tokens. */
static const char *declspec_segment(struct arena *a, const struct source_tokens *t, unsigned begin,
                                    unsigned name_offset)
{
    for (unsigned i = 0; i + 2 < t->count && t->offsets[i] < name_offset; i++)
        if (t->offsets[i] >= begin && !strcmp(t->text[i], "code_seg") && !strcmp(t->text[i + 1], "(") &&
            is_string(t->text[i + 2]))
            return segment_name(a, t->text[i + 2]);
    return NULL;
}

const char *segment_of(struct segment_index *ix, struct arena *a, const struct source_tokens *t, const char *name,
                       unsigned begin, unsigned name_offset, const char **how)
{
    *how = NULL;
    if (!t)
        return NULL;
    const char *seg = declspec_segment(a, t, begin, name_offset);
    if (seg) {
        *how = "__declspec(code_seg)";
        return seg;
    }
    struct file_segments *f = strmap_get(&ix->files, t->path);
    if (!f) {
        f = read_file(ix, t);
        strmap_put(&ix->files, t->path, f);
    }
    seg = strmap_get(&f->alloc_text, name);
    if (seg) {
        *how = "#pragma alloc_text";
        return arena_strdup(a, seg);
    }
    for (size_t i = f->nevents; i-- > 0;)
        if (f->events[i].offset < begin) {
            if (!f->events[i].segment)
                return NULL; /* code_seg() or a pop: back in .text */
            *how = "#pragma code_seg";
            return arena_strdup(a, f->events[i].segment);
        }
    return NULL;
}
