/* Unit tests of header ingestion on a miniature header: version discovery,
 * merging over versions and architectures, anonymous members, bitfields,
 * #pragma pack, SAL on fields and parameters, function typedefs. */
#include "header/header.h"
#include "util/diag.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <cmocka.h>
#include <string.h>

static struct ddi_layout layout;

static int ingest(void **state)
{
    (void)state;
    struct header_input in = {.header = UNIT_HEADER, .arch_mask = 7, .jobs = 2};
    ddigen_diag_global.quiet = 1;
    int rc = header_ingest(&in, &layout);
    header_input_free(&in);
    return rc;
}

static const struct ddi_functype *functype(const char *name)
{
    for (size_t i = 0; i < layout.functypes.len; i++)
        if (!strcmp(((struct ddi_functype *)layout.functypes.items[i])->name, name))
            return layout.functypes.items[i];
    fail_msg("function type %s not found", name);
    return NULL;
}

static int release(void **state)
{
    (void)state;
    ddi_layout_free(&layout);
    return 0;
}

static const struct ddi_record *record(const char *name)
{
    for (size_t i = 0; i < layout.records.len; i++)
        if (!strcmp(((struct ddi_record *)layout.records.items[i])->name, name))
            return layout.records.items[i];
    fail_msg("record %s not found", name);
    return NULL;
}

/* Depth-first search for a field by path (and bit width when >= -1). */
static const struct ddi_field *find_field(const struct ddi_record *r, const char *path, int bits)
{
    for (size_t i = 0; i < r->fields.len; i++) {
        const struct ddi_field *f = r->fields.items[i];
        if (f->name[0] && !strcmp(f->path, path) && (bits < -1 || f->bit_width == bits))
            return f;
        if (f->nested) {
            const struct ddi_field *inner = find_field(f->nested, path, bits);
            if (inner)
                return inner;
        }
    }
    return NULL;
}

static uint64_t offset_on(const struct ddi_field *f, enum ddi_arch arch, unsigned version)
{
    for (size_t i = 0; i < f->offsets.len; i++)
        if (f->offsets.items[i].arch == arch && ((f->offsets.items[i].versions >> version) & 1))
            return f->offsets.items[i].a;
    fail_msg("%s has no offset on arch %d version %u", f->path, arch, version);
    return 0;
}

static uint64_t size_on(const struct ddi_record *r, enum ddi_arch arch, unsigned version)
{
    for (size_t i = 0; i < r->sizes.len; i++)
        if (r->sizes.items[i].arch == arch && ((r->sizes.items[i].versions >> version) & 1))
            return r->sizes.items[i].a;
    fail_msg("%s has no size on arch %d version %u", r->name, arch, version);
    return 0;
}

static void versions_sorted_with_aliases(void **state)
{
    (void)state;
    assert_int_equal(layout.nversions, 3);
    assert_string_equal(layout.versions[0].name, "DXGKDDI_INTERFACE_VERSION_OLD");
    assert_string_equal(layout.versions[1].name, "DXGKDDI_INTERFACE_VERSION_MID");
    assert_string_equal(layout.versions[1].aliases, "DXGKDDI_INTERFACE_VERSION_SAME_AS_MID");
    assert_int_equal(layout.versions[2].value, 0x3000);
    struct arena a = {0};
    assert_null(ddi_versions_text(&a, &layout, 7));
    assert_string_equal(ddi_versions_text(&a, &layout, 6), "MID-NEW");
    assert_string_equal(ddi_versions_text(&a, &layout, 5), "OLD NEW");
    arena_free(&a);
}

static void renamed_bit_is_two_alternatives(void **state)
{
    (void)state;
    const struct ddi_record *flags = record("UNIT_FLAGS");
    const struct ddi_field *renamed = find_field(flags, "Renamed", 1);
    const struct ddi_field *reserved = find_field(flags, "Reserved00", 1);
    assert_non_null(renamed);
    assert_non_null(reserved);
    assert_int_equal(renamed->where.versions[DDI_ARCH_X64], 6);
    assert_int_equal(reserved->where.versions[DDI_ARCH_X64], 1);
    assert_int_equal(offset_on(renamed, DDI_ARCH_X86, 1), 1);
    assert_int_equal(offset_on(reserved, DDI_ARCH_ARM64, 0), 1);
    const struct ddi_field *value = find_field(flags, "Value", -1);
    assert_int_equal(value->where.versions[DDI_ARCH_X86], 7);
}

static void anonymous_members_and_paths(void **state)
{
    (void)state;
    const struct ddi_record *args = record("UNIT_ARGS");
    const struct ddi_field *seg = find_field(args, "Transfer.Source.SegmentAddress", -1);
    assert_non_null(seg);
    /* pBuffer(8) Size(4) pad(4) -> union at 16; hAllocation 16, Source at 24, SegmentAddress at 32. */
    assert_int_equal(offset_on(seg, DDI_ARCH_X64, 2), 32 * 8);
    /* x86: pointer 4, Size 4 -> union at 8 (aligned 8 for UINT64); hAllocation 8, Source 16, +8. */
    assert_int_equal(offset_on(seg, DDI_ARCH_X86, 2), 24 * 8);
    const struct ddi_field *anon = args->fields.items[2];
    assert_string_equal(anon->name, "");
    assert_non_null(anon->nested);
    assert_true(anon->nested->anonymous);
    assert_string_equal(anon->nested->name, "UNIT_ARGS.(unnamed union)");
    const struct ddi_field *transfer = anon->nested->fields.items[0];
    assert_string_equal(transfer->nested->name, "UNIT_ARGS.Transfer");
}

static void union_that_grows_moves_later_fields(void **state)
{
    (void)state;
    const struct ddi_record *args = record("UNIT_ARGS");
    const struct ddi_field *flags = find_field(args, "Flags", -1);
    /* Old/mid: union is 24 bytes at 16 -> Flags at 40; new: 32 bytes -> 48. */
    assert_int_equal(offset_on(flags, DDI_ARCH_X64, 0), 40 * 8);
    assert_int_equal(offset_on(flags, DDI_ARCH_X64, 2), 48 * 8);
    assert_int_equal(size_on(args, DDI_ARCH_X64, 1), 72);
    assert_int_equal(size_on(args, DDI_ARCH_X64, 2), 80);
    const struct ddi_field *grown = find_field(args, "Grown", -1);
    assert_int_equal(grown->where.versions[DDI_ARCH_X86], 4);
}

static void pragma_pack_and_arrays(void **state)
{
    (void)state;
    const struct ddi_record *packed = record("UNIT_PACKED");
    assert_int_equal(size_on(packed, DDI_ARCH_X64, 0), 9);
    assert_int_equal(offset_on(find_field(packed, "Address", -1), DDI_ARCH_X86, 0), 8);
    const struct ddi_field *matrix = find_field(record("UNIT_ARGS"), "Matrix", -1);
    assert_string_equal(matrix->array, "2 3");
    assert_string_equal(matrix->type, "UINT");
}

static void sal_on_fields_and_parameters(void **state)
{
    (void)state;
    const struct ddi_field *buffer = find_field(record("UNIT_ARGS"), "pBuffer", -1);
    assert_string_equal(buffer->sal, "_Field_size_bytes_(Size)");
    const struct ddi_functype *fn = NULL, *ptr = NULL;
    for (size_t i = 0; i < layout.functypes.len; i++) {
        const struct ddi_functype *f = layout.functypes.items[i];
        if (!strcmp(f->name, "UNITDDI_BUILD"))
            fn = f;
        if (!strcmp(f->name, "PUNITDDI_BUILD"))
            ptr = f;
    }
    assert_non_null(fn);
    assert_non_null(ptr);
    assert_string_equal(ptr->pointer_to, "UNITDDI_BUILD");
    assert_string_equal(fn->result, "NTSTATUS");
    assert_string_equal(fn->sal, "_IRQL_requires_(PASSIVE_LEVEL)");
    assert_int_equal(fn->params.len, 4);
    const struct ddi_param *p0 = fn->params.items[0], *p2 = fn->params.items[2], *p3 = fn->params.items[3];
    assert_string_equal(p3->sal, "_When_(pContext!=0, _In_reads_bytes_(Size))");
    assert_string_equal(p0->name, "hAdapter");
    assert_string_equal(p0->sal, "_In_");
    assert_string_equal(p2->sal, "_In_opt_");
}

/* "// in:" after a member on its line is a mark (for every declarator of
 * the line); prose and a comment on a line of its own are not. */
static void direction_comments(void **state)
{
    (void)state;
    const struct ddi_record *r = record("UNIT_COMMENTED");
    static const struct {
        const char *path, *dir;
    } want[] = {{"hObject", "both"}, {"Width", "out"}, {"Count", "in"}, {"Size", NULL}, {"Extra", "in"},
                {"Both", "both"},    {"Opt", "in"},    {"Next", NULL},  {"Last", "in"}, {"Other", "in"}};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++) {
        const struct ddi_field *f = find_field(r, want[i].path, -2);
        assert_non_null(f);
        if (want[i].dir)
            assert_string_equal(f->comment_dir ? f->comment_dir : "(none)", want[i].dir);
        else
            assert_null(f->comment_dir);
    }
}

static void enum_values_by_version(void **state)
{
    (void)state;
    const struct ddi_enum *e = NULL;
    for (size_t i = 0; i < layout.enums.len; i++)
        if (!strcmp(((struct ddi_enum *)layout.enums.items[i])->name, "UNIT_OPERATION"))
            e = layout.enums.items[i];
    assert_non_null(e);
    assert_int_equal(e->values.len, 3);
    const struct ddi_enumerator *c = e->values.items[2];
    assert_string_equal(c->name, "UNIT_OP_C");
    assert_int_equal(c->value, 2);
    assert_int_equal(c->where.versions[DDI_ARCH_ARM64], 4);
}

/* UINT : 29 behind a version condition: fields without a name, one per
 * width, gated like any other field. */
static void unnamed_bitfields(void **state)
{
    (void)state;
    const struct ddi_record *mode = record("UNIT_MODE");
    const struct ddi_field *pad29 = NULL, *pad30 = NULL;
    for (size_t i = 0; i < mode->fields.len; i++) {
        const struct ddi_field *f = mode->fields.items[i];
        if (!f->name[0] && f->bit_width == 29)
            pad29 = f;
        if (!f->name[0] && f->bit_width == 30)
            pad30 = f;
    }
    assert_non_null(pad29);
    assert_non_null(pad30);
    assert_null(pad29->nested);
    assert_int_equal(pad29->where.versions[DDI_ARCH_X64], 2);
    assert_int_equal(pad30->where.versions[DDI_ARCH_X64], 5);
    assert_int_equal(offset_on(pad29, DDI_ARCH_X86, 1), 3);
    assert_int_equal(offset_on(pad30, DDI_ARCH_X86, 0), 2);
}

/* UINT UNIT_SPARE_BIT : 1 with #define UNIT_SPARE_BIT Spare. */
static void names_made_by_macros(void **state)
{
    (void)state;
    const struct ddi_field *spare = find_field(record("UNIT_MODE"), "Spare", 1);
    assert_non_null(spare);
    assert_string_equal(spare->spelled, "UNIT_SPARE_BIT");
    assert_null(find_field(record("UNIT_MODE"), "Fast", 1)->spelled);
}

/* A condition continued with a backslash is not code: the SAL of the
 * field after it is its own. */
static void continued_condition_is_not_sal(void **state)
{
    (void)state;
    const struct ddi_field *windows = find_field(record("UNIT_OUTER"), "pWindows", -1);
    assert_non_null(windows);
    assert_string_equal(windows->sal, "_Field_size_(Count)");
}

/* struct _UNIT_WINDOW declared inside UNIT_OUTER: _UNIT_OUTER::_UNIT_WINDOW
 * in C++. */
static void tag_declared_inside_a_record(void **state)
{
    (void)state;
    const struct ddi_record *window = record("_UNIT_WINDOW");
    assert_string_equal(window->cxx_type, "_UNIT_OUTER::_UNIT_WINDOW");
    assert_null(record("UNIT_OUTER")->cxx_type);
}

/* Tags declared inside unnamed unions of UNIT_MAPPING have no qualified C++
 * name: the member declared with them names their type, through a named
 * member on the way; an array member gives no spelling. */
static void tag_declared_inside_an_unnamed_union(void **state)
{
    (void)state;
    assert_string_equal(record("UNIT_ENGINE_DESC")->cxx_type, "decltype(((_UNIT_MAPPING *)0)->EngineDesc)");
    assert_string_equal(record("UNIT_MONITOR_DESC")->cxx_type, "decltype(((_UNIT_MAPPING *)0)->MonitorDesc)");
    assert_string_equal(record("UNIT_NAMED_DESC")->cxx_type, "decltype(((_UNIT_MAPPING *)0)->Named.Inner)");
    assert_null(record("UNIT_ARRAY_DESC")->cxx_type);
}

/* UNIT_LIMIT_MAX = 7 / 8 / 9 in three branches: one name, three values,
 * each with its versions. */
static void enumerator_value_per_version(void **state)
{
    (void)state;
    const struct ddi_enum *e = NULL;
    for (size_t i = 0; i < layout.enums.len; i++)
        if (!strcmp(((struct ddi_enum *)layout.enums.items[i])->name, "UNIT_LIMIT"))
            e = layout.enums.items[i];
    assert_non_null(e);
    uint64_t seen = 0;
    for (size_t i = 0; i < e->values.len; i++) {
        const struct ddi_enumerator *v = e->values.items[i];
        if (strcmp(v->name, "UNIT_LIMIT_MAX") != 0)
            continue;
        assert_int_equal(v->where.versions[DDI_ARCH_X86], 1ull << (v->value - 7));
        seen |= v->where.versions[DDI_ARCH_X86];
    }
    assert_int_equal(seen, 7);
}

/* typedef NTSTATUS (APIENTRY *X)(...): a signature with its parameters,
 * not a pointer to NTSTATUS. */
static void callback_pointer_typedefs(void **state)
{
    (void)state;
    const struct ddi_functype *notify = functype("UNITDDI_NOTIFY");
    assert_true(notify->pointer);
    assert_null(notify->pointer_to);
    assert_string_equal(notify->result, "NTSTATUS");
    assert_int_equal(notify->params.len, 2);
    assert_string_equal(((struct ddi_param *)notify->params.items[0])->sal, "_In_");
    const struct ddi_functype *query = functype("PFNUNIT_QUERY");
    assert_true(query->pointer);
    assert_string_equal(query->sal, "_Check_return_");
    assert_int_equal(query->params.len, 3);
    const struct ddi_param *out = query->params.items[1];
    assert_string_equal(out->name, "pOut");
    assert_string_equal(out->sal, "_Out_writes_bytes_(Size)");
    assert_false(functype("PUNITDDI_BUILD")->pointer);
}

/* A field's type facts on one configuration: bytes and the packed scalar. */
static const struct ddi_value *facts_on(const struct ddi_values *v, enum ddi_arch arch, unsigned version)
{
    for (size_t i = 0; i < v->len; i++)
        if (v->items[i].arch == arch && ((v->items[i].versions >> version) & 1))
            return &v->items[i];
    fail_msg("no type facts on arch %d version %u", arch, version);
    return NULL;
}

static void expect_facts(const char *path, uint64_t bytes_x86, uint64_t bytes_x64, unsigned scalar)
{
    const struct ddi_field *f = find_field(record("UNIT_SCALARS"), path, -2);
    assert_non_null(f);
    for (unsigned version = 0; version < 3; version++) {
        assert_int_equal(facts_on(&f->type_facts, DDI_ARCH_X86, version)->a, bytes_x86);
        assert_int_equal(facts_on(&f->type_facts, DDI_ARCH_X64, version)->a, bytes_x64);
        assert_int_equal(facts_on(&f->type_facts, DDI_ARCH_ARM64, version)->a, bytes_x64);
        for (int arch = 0; arch < DDI_ARCH_COUNT; arch++)
            assert_int_equal(facts_on(&f->type_facts, (enum ddi_arch)arch, version)->b, scalar);
    }
}

static void type_facts_from_clang(void **state)
{
    (void)state;
    expect_facts("Plain", 1, 1, DDI_SCALAR_SIGNED);
    expect_facts("Short", 2, 2, DDI_SCALAR_UNSIGNED);
    expect_facts("Flag", 1, 1, DDI_SCALAR_UNSIGNED);
    expect_facts("Long", 4, 4, DDI_SCALAR_SIGNED);
    expect_facts("Ratio", 4, 4, DDI_SCALAR_FLOAT);
    expect_facts("Precise", 8, 8, DDI_SCALAR_FLOAT);
    expect_facts("Operation", 4, 4, DDI_SCALAR_SIGNED | DDI_TYPE_ENUM);
    expect_facts("Anonymous", 4, 4, DDI_SCALAR_SIGNED | DDI_TYPE_ENUM);
    expect_facts("Bits", 4, 4, DDI_SCALAR_UNSIGNED);
    expect_facts("Bytes", 1, 1, DDI_SCALAR_UNSIGNED);
    expect_facts("Address", 4, 8, DDI_SCALAR_POINTER);
    expect_facts("ppPacked", 4, 8, DDI_SCALAR_POINTER | DDI_SCALAR_RECORD << DDI_POINTEE_SHIFT);
    expect_facts("Quad", 8, 8, DDI_SCALAR_UNSIGNED);
    expect_facts("Flags", 4, 4, DDI_SCALAR_RECORD);
    /* A record member that grows by version: its type's size per version. */
    const struct ddi_field *grown = NULL;
    const struct ddi_record *args = record("UNIT_ARGS");
    for (size_t i = 0; i < args->fields.len && !grown; i++)
        if (((struct ddi_field *)args->fields.items[i])->nested)
            grown = args->fields.items[i];
    assert_non_null(grown);
    assert_int_equal(facts_on(&grown->type_facts, DDI_ARCH_X64, 1)->a, size_on(grown->nested, DDI_ARCH_X64, 1));
    assert_int_equal(facts_on(&grown->type_facts, DDI_ARCH_X64, 2)->a, 32);
    /* Typedefs: HANDLE is a pointer, UINT an unsigned int. */
    for (size_t i = 0; i < layout.typedefs.len; i++) {
        const struct ddi_typedef *t = layout.typedefs.items[i];
        if (!strcmp(t->name, "HANDLE")) {
            assert_int_equal(facts_on(&t->type_facts, DDI_ARCH_X86, 0)->a, 4);
            assert_int_equal(facts_on(&t->type_facts, DDI_ARCH_ARM64, 0)->a, 8);
            assert_int_equal(facts_on(&t->type_facts, DDI_ARCH_ARM64, 0)->b, DDI_SCALAR_POINTER);
        }
        if (!strcmp(t->name, "UINT"))
            assert_int_equal(facts_on(&t->type_facts, DDI_ARCH_X86, 0)->b, DDI_SCALAR_UNSIGNED);
    }
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(versions_sorted_with_aliases),
        cmocka_unit_test(renamed_bit_is_two_alternatives),
        cmocka_unit_test(anonymous_members_and_paths),
        cmocka_unit_test(union_that_grows_moves_later_fields),
        cmocka_unit_test(pragma_pack_and_arrays),
        cmocka_unit_test(sal_on_fields_and_parameters),
        cmocka_unit_test(direction_comments),
        cmocka_unit_test(enum_values_by_version),
        cmocka_unit_test(unnamed_bitfields),
        cmocka_unit_test(names_made_by_macros),
        cmocka_unit_test(continued_condition_is_not_sal),
        cmocka_unit_test(tag_declared_inside_a_record),
        cmocka_unit_test(tag_declared_inside_an_unnamed_union),
        cmocka_unit_test(enumerator_value_per_version),
        cmocka_unit_test(callback_pointer_typedefs),
        cmocka_unit_test(type_facts_from_clang),
    };
    return cmocka_run_group_tests_name("header_units", tests, ingest, release);
}
