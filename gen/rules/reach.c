/* Direction by path (reach.h): which validator a field's checks belong to,
 * from its record's own marks and from the paths that reach the record from
 * the DDI entry points the OS calls and the callbacks the driver calls. */
#include "reach.h"

#include "../util/arena.h"
#include "../util/strmap.h"

#include <stdlib.h>
#include <string.h>

struct reach_rec {
    const struct ddi_model_record *rec;
    struct strmap marks; /* field path -> RULES_DIR_* (as a pointer-sized int) */
    unsigned unmarked;   /* the direction of a field nothing marks */
    unsigned marked;     /* the directions its marks name (RULES_DIR_OUT: the driver writes some field) */
    struct reach_context ctx;  /* from the entry points */
    struct reach_context late; /* only from records no entry point reaches */
    int queued;
    /* Handed out through a pointer to a pointer by some function type: to
     * const only (the OS's own data, as a monitor's frequency ranges), or
     * to a record the caller may fill (a new mode info to add). */
    int out_const, out_writable;
};

struct reach {
    const struct ddi_model *m;
    struct reach_rec *recs;
    size_t n;
    struct strmap by_name; /* record name -> reach_rec (first of each name) */
    struct strmap functypes_done; /* function type name -> role bits done */
    struct vec queue;
    int late_phase;
    int has_entry_points; /* the model has an initialization data record */
    struct arena a;
};

enum role { ROLE_OS_CALLS = 1, ROLE_DRIVER_CALLS = 2 };

static int streq(const char *a, const char *b)
{
    return a && b && strcmp(a, b) == 0;
}

/* ---- a record's own marks ------------------------------------------------ */

/* Direction rules of the pages, SAL on fields the pages do not mark, and
 * `writes` overrides (what lowering always used: moved here so that the
 * path walk and the lowering read one definition). */
static void read_marks(struct reach_rec *rr)
{
    const struct ddi_model_record *rec = rr->rec;
    for (size_t i = 0; i < rec->nrules; i++) {
        const struct ddi_model_rule *r = rec->rules[i];
        const char *v = streq(r->kind_name, "direction") ? ddi_model_docs_operand(r, "value") : NULL;
        if (!r->field || !v || r->review == DDI_REVIEW_DROP)
            continue;
        unsigned d = streq(v, "in") ? RULES_DIR_IN : streq(v, "out") ? RULES_DIR_OUT : RULES_DIR_BOTH;
        d |= (unsigned)(uintptr_t)strmap_get(&rr->marks, r->field);
        strmap_put(&rr->marks, r->field, (void *)(uintptr_t)d);
    }
    /* _Out_ is the driver's, _Inout_ both, _In_ the caller's */
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        const char *sal = f->sal;
        if (!sal || !f->path || strmap_get(&rr->marks, f->path))
            continue;
        unsigned d = strstr(sal, "_Inout") ? RULES_DIR_BOTH : strstr(sal, "_Out") ? RULES_DIR_OUT
                     : strstr(sal, "_In_") ? RULES_DIR_IN : 0;
        if (d)
            strmap_put(&rr->marks, f->path, (void *)(uintptr_t)d);
    }
    /* the header's own comment ("// in: device creation flags",
     * "//out:Width") where neither page nor SAL marks the member */
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        const char *c = f->comment_dir;
        if (!c || !f->path || strmap_get(&rr->marks, f->path))
            continue;
        unsigned d = streq(c, "in") ? RULES_DIR_IN : streq(c, "out") ? RULES_DIR_OUT : RULES_DIR_BOTH;
        strmap_put(&rr->marks, f->path, (void *)(uintptr_t)d);
    }
    for (size_t i = 0; i < rec->nwrites; i++)
        strmap_put(&rr->marks, rec->writes[i], (void *)(uintptr_t)RULES_DIR_BOTH);
    unsigned marked = 0;
    for (size_t i = 0; i < rr->marks.cap; i++)
        marked |= rr->marks.slots[i].key ? (unsigned)(uintptr_t)rr->marks.slots[i].value : 0;
    /* A field nothing marks: the driver's when every marked field is
     * [out] and they are at least half of the record's fields (a structure
     * the driver fills, DXGK_SEGMENTDESCRIPTOR3); the caller's when the
     * record marks others (one [out] VirtualAddress does not make
     * D3DDDI_RESERVEGPUVIRTUALADDRESS.BaseAddress the driver's); both when
     * it marks none (a flag union: the embedding field decides). */
    rr->marked = marked;
    int mostly = 2 * rr->marks.len >= rec->nfields;
    rr->unmarked = !marked ? RULES_DIR_BOTH : marked == RULES_DIR_OUT && mostly ? RULES_DIR_OUT : RULES_DIR_IN;
}

static struct reach_rec *find(const struct reach *r, const struct ddi_model_record *rec)
{
    return rec && rec->name ? strmap_get(&r->by_name, rec->name) : NULL;
}

static unsigned marks_of(const struct reach *r, const struct ddi_model_record *rec, const char *path, int with_default)
{
    const struct reach_rec *rr = find(r, rec);
    if (!rr)
        return with_default ? RULES_DIR_BOTH : 0;
    char buf[512];
    size_t n = strlen(path ? path : "");
    if (n >= sizeof buf)
        return with_default ? rr->unmarked : 0;
    memcpy(buf, path ? path : "", n + 1);
    for (;;) {
        void *d = n ? strmap_get(&rr->marks, buf) : NULL;
        if (d)
            return (unsigned)(uintptr_t)d;
        char *dot = strrchr(buf, '.');
        if (!dot)
            return with_default ? rr->unmarked : 0;
        *dot = '\0';
        n = (size_t)(dot - buf);
    }
}

unsigned reach_marked_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path)
{
    return marks_of(r, rec, path, 1);
}

/* The explicit mark of a field; a union member the record's
 * discriminator selects, unmarked, is marked as its selector is (the
 * member describes the operation the selector names). */
static unsigned own_explicit(const struct reach *r, const struct ddi_model_record *rec, const char *path)
{
    unsigned d = marks_of(r, rec, path, 0);
    const struct ddi_model_discriminator *disc = rec->discriminator;
    size_t n = strcspn(path, ".");
    for (size_t i = 0; !d && disc && i < disc->ncases; i++) {
        const char *m = disc->cases[i].member;
        if (m && strlen(m) == n && !strncmp(m, path, n))
            d = marks_of(r, rec, disc->selector, 0);
    }
    return d;
}

static const struct reach_context *context_of(const struct reach *r, const struct ddi_model_record *rec);

unsigned reach_explicit_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path)
{
    unsigned d = own_explicit(r, rec, path);
    const struct reach_context *c = d ? NULL : context_of(r, rec);
    if (c && c->reached && !c->direct && !c->guessed)
        d = c->marked_dirs;
    return d;
}

/* ---- types ------------------------------------------------------------- */

const struct ddi_model_record *reach_embedded(const struct ddi_model_field *f)
{
    if (!f->type_record || f->array || f->bitfield || f->nested)
        return NULL;
    if ((f->type && strchr(f->type, '*')) || (f->canonical && strchr(f->canonical, '*')))
        return NULL;
    return f->type_record;
}

const struct ddi_model_record *reach_pointee(const struct ddi_model *m, const char *type, int *stars, int *is_const)
{
    for (int hops = 0; type && hops < 8 && !strchr(type, '*'); hops++)
        type = ddi_model_typedef_type(m, type);
    const char *star = type ? strchr(type, '*') : NULL;
    if (!star)
        return NULL;
    *stars = 0;
    for (const char *p = star; *p; p++)
        *stars += *p == '*';
    char base[256];
    size_t n = (size_t)(star - type);
    if (n >= sizeof base)
        return NULL;
    memcpy(base, type, n);
    base[n] = '\0';
    *is_const = strstr(base, "const") != NULL || strstr(base, "CONST") != NULL;
    return ddi_model_type_record(m, base);
}

/* ---- the walk ------------------------------------------------------------ */

static struct reach_context *ctx_of(struct reach *r, struct reach_rec *rr)
{
    return r->late_phase ? &rr->late : &rr->ctx;
}

/* Adds a path's facts to the record; queued again when they grew. */
static void reach_add(struct reach *r, const struct ddi_model_record *rec, unsigned dirs, int os_returned,
                      int called_back, int direct, unsigned marked)
{
    struct reach_rec *rr = find(r, rec);
    if (!rr || (r->late_phase && rr->ctx.reached))
        return;
    struct reach_context *c = ctx_of(r, rr), before = *c;
    c->reached = 1;
    c->dirs |= dirs;
    c->os_returned |= os_returned;
    c->called_back |= called_back;
    c->direct |= direct;
    c->marked_dirs |= marked;
    c->guessed |= !direct && !marked;
    if (memcmp(&before, c, sizeof before) && !rr->queued) {
        rr->queued = 1;
        vec_push(&r->queue, rr);
    }
}

static void visit_functype(struct reach *r, const struct ddi_model_functype *ft, unsigned role);

/* A marked direction within a context (reach_field_dir). */
static unsigned within(const struct reach_context *c, unsigned marked)
{
    if (!c->reached)
        return marked;
    unsigned d = marked & c->dirs;
    return d || c->direct ? d : c->dirs;
}

/* The function type a field's type names, through a pointer-to typedef. */
static const struct ddi_model_functype *functype_of(const struct ddi_model *m, const char *type)
{
    const struct ddi_model_functype *ft = type ? ddi_model_functype(m, type) : NULL;
    if (ft && ft->pointer_to)
        ft = ddi_model_functype(m, ft->pointer_to);
    return ft;
}

/* The role a function pointer field of rec plays: the OS calls the
 * members of the initialization data; the driver calls DXGKCB_* and the
 * functions of an interface the OS hands it. */
static unsigned member_role(const struct reach_rec *rr, const struct ddi_model_functype *ft)
{
    const char *name = rr->rec->name;
    if (streq(name, "DRIVER_INITIALIZATION_DATA") || streq(name, "KMDDOD_INITIALIZATION_DATA"))
        return ROLE_OS_CALLS;
    if (!strncmp(ft->name, "DXGKCB_", 7) || rr->ctx.os_returned || streq(name, "DXGKRNL_INTERFACE"))
        return ROLE_DRIVER_CALLS;
    return 0;
}

/* The explicit direction of an embedding field: its own mark, else, in a
 * record itself reached only embedded through marked fields, theirs. */
static unsigned explicit_within(const struct reach *r, const struct ddi_model_record *rec,
                                const struct reach_context *c, const char *path)
{
    unsigned d = own_explicit(r, rec, path);
    if (!d && c->reached && !c->direct && !c->guessed)
        d = c->marked_dirs;
    return d;
}

/* A record's fields: embedded records inherit the direction of the field
 * (within what reaches the record); pointed-to records are written as
 * their own marks say (only read when the pointer is to const). */
static void visit_record(struct reach *r, struct reach_rec *rr)
{
    const struct reach_context c = *ctx_of(r, rr);
    const struct ddi_model_record *rec = rr->rec;
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        const struct ddi_model_record *e = f->type_record;
        int stars = 0, is_const = 0;
        if (e && !f->bitfield && !(f->type && strchr(f->type, '*')) && !(f->canonical && strchr(f->canonical, '*'))) {
            reach_add(r, e, within(&c, reach_marked_dir(r, rec, f->path)), c.os_returned, c.called_back, 0,
                      explicit_within(r, rec, &c, f->path));
            continue;
        }
        if (r->late_phase)
            continue; /* records nobody calls with: only what they embed */
        const struct ddi_model_functype *ft = functype_of(r->m, f->type);
        if (ft) {
            unsigned role = member_role(rr, ft);
            if (role)
                visit_functype(r, ft, role);
            continue;
        }
        e = reach_pointee(r->m, f->type, &stars, &is_const);
        if (!e || stars != 1 || (!c.dirs && !c.os_returned))
            continue;
        if (c.called_back || !c.dirs) {
            reach_add(r, e, c.called_back ? RULES_DIR_IN : 0, !c.dirs, c.called_back, 1, 0);
            continue;
        }
        /* The pointee is the driver's to write where its own page marks
         * a field it writes (DXGK_ALLOCATIONINFO behind pAllocationInfo);
         * otherwise it is written as the pointer is (the MPO planes behind
         * the [in] pPlanes of a const argument are the OS's). */
        const struct reach_rec *pe = find(r, e);
        unsigned d = is_const                                ? RULES_DIR_IN
                     : pe && (pe->marked & RULES_DIR_OUT) ? RULES_DIR_BOTH
                                                          : within(&c, reach_marked_dir(r, rec, f->path));
        reach_add(r, e, d, 0, 0, 1, 0);
    }
}

/* A call that gives the OS back what it handed out (the monitor
 * interface's pfnReleaseAdditionalMonitorModeSet takes the
 * DXGK_TARGETMODE_DETAIL_TIMING array pfnGetAdditionalMonitorModeSet
 * returned; pfnReleaseFrequencyRangeInfo, pfnReleaseModeInfo): its records
 * are the OS's data, not values the driver set. */
static int hands_back(const struct ddi_model_functype *ft)
{
    const char *release = strstr(ft->name, "RELEASE");
    return release && (release == ft->name || release[-1] == '_');
}

/* A record the OS only ever hands out as const (pfnAcquireFirstFrequency-
 * RangeInfo's CONST D3DKMDT_MONITOR_FREQUENCY_RANGE **): the driver cannot
 * have set one, so passing it back in (pfnAcquireNextFrequencyRangeInfo's
 * cursor) gives the OS its own data. */
static int os_owned(const struct reach *r, const struct ddi_model_record *rec)
{
    const struct reach_rec *rr = find(r, rec);
    return rr && rr->out_const && !rr->out_writable;
}

/* Which records some function type hands out through a pointer to a
 * pointer, to const or not (os_owned). */
static void find_handed_out(struct reach *r)
{
    for (size_t i = 0; i < r->m->nfunctypes; i++) {
        const struct ddi_model_functype *ft = &r->m->functypes[i];
        for (size_t k = 0; k < ft->nparams; k++) {
            int stars = 0, is_const = 0;
            struct reach_rec *rr = find(r, reach_pointee(r->m, ft->params[k].type, &stars, &is_const));
            if (!rr || stars < 2)
                continue;
            rr->out_const |= is_const;
            rr->out_writable |= !is_const;
        }
    }
}

/* The argument records of a call: the caller sets what it passes; for a
 * call the OS makes the driver writes what is not const; for a call the
 * driver makes, what the OS returns (an _Out_ parameter, a pointer to a
 * pointer) is the OS's, never checked as the driver's, and so is what it
 * takes back (hands_back, os_owned). */
static void visit_functype(struct reach *r, const struct ddi_model_functype *ft, unsigned role)
{
    unsigned done = (unsigned)(uintptr_t)strmap_get(&r->functypes_done, ft->name);
    if (done & role)
        return;
    strmap_put(&r->functypes_done, ft->name, (void *)(uintptr_t)(done | role));
    for (size_t k = 0; k < ft->nparams; k++) {
        const struct ddi_model_param *p = &ft->params[k];
        int stars = 0, is_const = 0;
        const struct ddi_model_record *e = reach_pointee(r->m, p->type, &stars, &is_const);
        int sal_out = p->sal && strstr(p->sal, "_Out") && !strstr(p->sal, "_Inout");
        if (!e)
            continue;
        if (role == ROLE_DRIVER_CALLS) {
            if (sal_out || stars > 1 || hands_back(ft) || (is_const && os_owned(r, e)))
                reach_add(r, e, 0, 1, 0, 1, 0);
            else
                reach_add(r, e, RULES_DIR_IN, 0, 1, 1, 0);
            continue;
        }
        if (stars == 1)
            reach_add(r, e, is_const ? RULES_DIR_IN : sal_out ? RULES_DIR_OUT : RULES_DIR_BOTH, 0, 0, 1, 0);
    }
}

/* An interface the driver hands the OS from DxgkDdiQueryInterface: the
 * INTERFACE header (InterfaceReference, InterfaceDereference) and
 * functions of types the driver implements (DXGK_BRIGHTNESS_INTERFACE_2,
 * DXGK_OPM_INTERFACE), not one the OS returns to the driver (a callback's
 * output) nor one of DXGKCB_ functions (DXGK_AGP_INTERFACE). */
static int is_driver_interface(const struct reach_rec *rr)
{
    const struct ddi_model_record *rec = rr->rec;
    if (rr->ctx.os_returned || !ddi_model_field(rec, "InterfaceReference") ||
        !ddi_model_field(rec, "InterfaceDereference"))
        return 0;
    return 1;
}

/* The OS calls the functions of a driver's interface as it calls the
 * members of the initialization data. */
static void visit_driver_interface(struct reach *r, const struct reach_rec *rr)
{
    const struct ddi_model_record *rec = rr->rec;
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_functype *ft = functype_of(r->m, rec->all[i]->type);
        if (ft && strncmp(ft->name, "DXGKCB_", 7))
            visit_functype(r, ft, ROLE_OS_CALLS);
    }
}

/* An untyped buffer a value of an enum selects (QueryAdapterInfo's
 * pOutputData by Type: "the driver should populate a DXGK_DRIVERCAPS
 * structure"; its input buffer "will be a X structure"): the record is
 * reached as a parameter of the call the OS makes, written by the side
 * the page names. */
static void visit_buffer_types(struct reach *r)
{
    for (size_t i = 0; i < r->m->ndocs_rules; i++) {
        const struct ddi_model_docs_rule *dr = &r->m->docs_rules[i];
        if (!streq(dr->kind, "buffer-type"))
            continue;
        const char *name = ddi_model_operand_named(dr->operands, dr->noperands, "record");
        const char *dir = ddi_model_operand_named(dr->operands, dr->noperands, "dir");
        const struct ddi_model_record *rec = name ? ddi_model_record_any(r->m, name) : NULL;
        if (rec && dir)
            reach_add(r, rec, streq(dir, "out") ? RULES_DIR_OUT : RULES_DIR_IN, 0, 0, 1, 0);
    }
}

/* The record a later version of an interface extends: DXGK_MONITOR_INTERFACE
 * for DXGK_MONITOR_INTERFACE_V2, DXGK_BRIGHTNESS_INTERFACE for
 * DXGK_BRIGHTNESS_INTERFACE_2 (the header: "All the old field in this
 * interface must keep exactly same sequence as old DXGK_MONITOR_INTERFACE").
 * The OS hands out the later version where the driver asks for it by
 * version, through the same callback, so no path names it. NULL when
 * the name has no such suffix or the base is no record. */
static struct reach_rec *base_interface(const struct reach *r, const struct reach_rec *rr)
{
    const char *name = rr->rec->name;
    size_t n = strlen(name), k = n;
    while (k > 0 && name[k - 1] >= '0' && name[k - 1] <= '9')
        k--;
    if (k == n || k < 2)
        return NULL;
    k -= name[k - 1] == 'V' && name[k - 2] == '_' ? 2 : name[k - 1] == '_' ? 1 : 0;
    if (k == n || k < 10 || strncmp(name + k - 9, "INTERFACE", 9))
        return NULL;
    char base[256];
    if (k >= sizeof base)
        return NULL;
    memcpy(base, name, k);
    base[k] = '\0';
    return strmap_get(&r->by_name, base);
}

/* A later interface version no path reaches is reached as its base is. */
static void visit_interface_versions(struct reach *r)
{
    for (size_t i = 0; i < r->n; i++) {
        struct reach_rec *rr = &r->recs[i];
        const struct reach_rec *b = rr->ctx.reached ? NULL : base_interface(r, rr);
        if (b && b->ctx.reached)
            reach_add(r, rr->rec, b->ctx.dirs, b->ctx.os_returned, b->ctx.called_back, b->ctx.direct,
                      b->ctx.marked_dirs);
    }
}

static void drain(struct reach *r)
{
    while (r->queue.len) {
        struct reach_rec *rr = r->queue.items[--r->queue.len];
        rr->queued = 0;
        visit_record(r, rr);
    }
}

struct reach *reach_compute(const struct ddi_model *m)
{
    struct reach *r = calloc(1, sizeof *r);
    if (!r)
        return NULL;
    r->m = m;
    r->recs = arena_alloc(&r->a, (m->nrecords + 1) * sizeof *r->recs);
    for (size_t i = 0; i < m->nrecords; i++) {
        if (!m->records[i]->name || strmap_get(&r->by_name, m->records[i]->name))
            continue;
        struct reach_rec *rr = &r->recs[r->n++];
        rr->rec = m->records[i];
        read_marks(rr);
        strmap_put(&r->by_name, rr->rec->name, rr);
    }
    find_handed_out(r);
    /* the entry points: every member of the initialization data records */
    for (size_t i = 0; i < r->n; i++) {
        const char *name = r->recs[i].rec->name;
        if (streq(name, "DRIVER_INITIALIZATION_DATA") || streq(name, "KMDDOD_INITIALIZATION_DATA")) {
            r->has_entry_points = 1;
            visit_record(r, &r->recs[i]);
        }
    }
    if (r->has_entry_points)
        visit_buffer_types(r);
    for (size_t i = 0; i < m->nfunctypes; i++)
        if (m->functypes[i].name && !strncmp(m->functypes[i].name, "DXGKCB_", 7) && m->functypes[i].nparams)
            visit_functype(r, &m->functypes[i], ROLE_DRIVER_CALLS);
    drain(r);
    visit_interface_versions(r);
    drain(r);
    for (size_t i = 0; i < r->n; i++)
        if (is_driver_interface(&r->recs[i]))
            visit_driver_interface(r, &r->recs[i]);
    drain(r);
    /* Records no entry point reaches still pass their marks down to what
     * they embed (DXGK_DRIVERCAPS.GammaRampCaps is [out]: its
     * DXGK_GAMMARAMPCAPS is the driver's), to records nothing else reaches. */
    r->late_phase = 1;
    for (size_t i = 0; i < r->n; i++)
        if (!r->recs[i].ctx.reached) {
            struct reach_rec *rr = &r->recs[i];
            struct reach_context own = rr->late;
            rr->late.dirs = rr->late.reached ? rr->late.dirs : RULES_DIR_BOTH;
            visit_record(r, rr);
            if (!own.reached)
                rr->late = own;
            drain(r);
        }
    return r;
}

static const struct reach_context *context_of(const struct reach *r, const struct ddi_model_record *rec)
{
    const struct reach_rec *rr = find(r, rec);
    return !rr ? NULL : rr->ctx.reached ? &rr->ctx : &rr->late;
}

struct reach_context reach_context_of(const struct reach *r, const struct ddi_model_record *rec)
{
    const struct reach_rec *rr = find(r, rec);
    struct reach_context none = {0};
    if (!rr)
        return none;
    return rr->ctx.reached ? rr->ctx : rr->late;
}

/* A flag record: every named field a bitfield but one `Value` that holds
 * them all (D3DDDICB_SIGNALFLAGS). Whoever sets it leaves its reserved bits
 * clear, so its rules hold on either side of a call. */
static int is_flags(const struct ddi_model_record *rec)
{
    size_t bits = 0;
    for (size_t i = 0; i < rec->nall; i++) {
        const struct ddi_model_field *f = rec->all[i];
        if (f->bitfield)
            bits += f->name && f->name[0];
        else if (f->name && f->name[0] && !f->nested && !streq(f->name, "Value"))
            return 0;
    }
    return bits > 0;
}

/* A record of the header user mode shares with the kernel (d3dukmdt.h)
 * that no path from the miniport's entry points reaches is an argument of
 * a call user mode makes (a pfn*Cb callback, a D3DKMT thunk: every field
 * that holds D3DDDICB_SIGNALFLAGS is "in:"), set by its caller: the OS
 * returns nothing in it, so an `out` check of it has no meaning. */
static int user_mode_shared(const struct ddi_model_record *rec)
{
    size_t n = rec->file ? strlen(rec->file) : 0;
    return n >= 10 && !strcmp(rec->file + n - 10, "d3dukmdt.h");
}

/* A field of a record no path reaches: its marks, or its record's default
 * when the record marks some fields (which says whose the rest is), else 0
 * (a structure in a byte array or behind a query by type, such as
 * DXGKMDT_OPM_STANDARD_INFORMATION in abRequestedInformation, marks none:
 * whether the driver or the OS writes it would be a guess; the one half
 * leaves it unset, an output buffer on entry). A flag record keeps both,
 * and so does every record of a spec without the entry points (headers
 * other than a kit's, where no path can be known). */
static unsigned unreached_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path)
{
    const struct reach_rec *rr = find(r, rec);
    int guess = !r->has_entry_points || (rr && (rr->marked || is_flags(rec)));
    unsigned d = marks_of(r, rec, path, guess);
    if (r->has_entry_points && rr && !rr->marked && is_flags(rec) && user_mode_shared(rec))
        d &= RULES_DIR_IN;
    return d;
}

unsigned reach_field_dir(const struct reach *r, const struct ddi_model_record *rec, const char *path)
{
    struct reach_context c = reach_context_of(r, rec);
    if (!c.reached)
        return unreached_dir(r, rec, path);
    return within(&c, reach_marked_dir(r, rec, path));
}

void reach_free(struct reach *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++)
        strmap_free(&r->recs[i].marks);
    strmap_free(&r->by_name);
    strmap_free(&r->functypes_done);
    vec_free(&r->queue);
    arena_free(&r->a);
    free(r);
}
