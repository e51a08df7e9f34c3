/* gen/model: the typed model of a spec, over the spec generated at build
 * time from the fixture WDK 10.0.26100.0 and the validator fixture pages
 * (runtime/CMakeLists.txt). Expected numbers are the layout's own, read in
 * that spec (clang measured them): offsets per arch and version, a field
 * reached through a named type, a rule joined with its merge resolution.
 *   model_load [SPEC.xml]: with a spec (a real kit's, real_kit.sh), only
 *   the checks that hold for any spec: the model against the XML it read. */
#include "model/model.h"

#include <libxml/parser.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* cmocka needs these first */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

static xmlDocPtr doc;
static struct ddi_model *m;

static const char *spec_path = DDI_MODEL_SPEC;

static int setup(void **state)
{
    (void)state;
    doc = xmlReadFile(spec_path, NULL, XML_PARSE_NONET | XML_PARSE_HUGE);
    m = doc ? ddi_model_load(doc) : NULL;
    return m ? 0 : -1;
}

static int teardown(void **state)
{
    (void)state;
    ddi_model_free(m);
    xmlFreeDoc(doc);
    return 0;
}

static int version(const char *name)
{
    return ddi_version_find(&m->where, name, strlen(name));
}

static int arch(const char *name)
{
    return ddi_arch_find(&m->where, name, strlen(name));
}

static const struct ddi_model_rule *rule(const struct ddi_model_record *r, const char *id)
{
    for (size_t i = 0; i < r->nrules; i++)
        if (!strcmp(r->rules[i]->id, id))
            return r->rules[i];
    return NULL;
}

static void test_record_sizes_by_version(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "DXGKARG_BUILDPAGINGBUFFER");
    assert_non_null(r);
    assert_ptr_equal(ddi_model_record_by_tag(m, "_DXGKARG_BUILDPAGINGBUFFER"), r);
    assert_ptr_equal(ddi_model_record_of(m, r->node), r);
    assert_false(r->is_union);
    /* <size arch="x86" versions="VISTA-WDDM1_3_PATH_INDEPENDENT_ROTATION" bytes="288" align="8"/> ... */
    assert_int_equal(ddi_model_measure_at(&r->sizes[arch("x86")], version("VISTA"))->value, 288);
    assert_int_equal(ddi_model_measure_at(&r->sizes[arch("x86")], version("WDDM2_0"))->value, 296);
    assert_int_equal(ddi_model_measure_at(&r->sizes[arch("x64")], version("WDDM3_2"))->value, 320);
    assert_int_equal(ddi_model_measure_at(&r->sizes[arch("arm64")], version("WDDM3_1"))->align, 8);
}

static void test_field_offsets_per_arch(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "DXGKARG_BUILDPAGINGBUFFER");
    const struct ddi_model_field *size = ddi_model_field(r, "DmaSize");
    assert_non_null(size);
    assert_ptr_equal(ddi_model_field_of(m, size->node), size);
    assert_int_equal(ddi_model_offset(size, arch("x86"), version("WDDM3_1")), 32);
    assert_int_equal(ddi_model_offset(size, arch("x64"), version("WDDM3_1")), 64);
    assert_int_equal(ddi_model_offset(size, arch("arm64"), -1), 64);
    assert_int_equal(size->bits, 0);
    /* A pointer: 4 bytes on x86, 8 elsewhere (<type-size> per arch). */
    const struct ddi_model_field *p = ddi_model_field(r, "pDmaBuffer");
    struct ddi_type_fact f86 = ddi_model_fact(p, arch("x86"), version("WDDM3_1")),
                         f64 = ddi_model_fact(p, arch("x64"), -1);
    assert_int_equal(f86.bytes, 4);
    assert_int_equal(f64.bytes, 8);
    assert_int_equal(f64.cls, DDI_TYPE_POINTER);
    /* A field of WDDM 3.2 only: its offset there and nowhere before. */
    const struct ddi_model_field *w = ddi_model_field(r, "DmaBufferWriteOffset");
    assert_int_equal(ddi_model_offset(w, arch("x64"), version("WDDM3_2")), 2496);
    assert_int_equal(ddi_model_offset(w, arch("x86"), version("WDDM3_2")), 2368);
    assert_int_equal(ddi_model_offset(w, arch("x64"), version("WDDM3_1")), -1);
    assert_true(w->eff_versions == (ddi_vset)1 << version("WDDM3_2"));
    /* A member of the anonymous union that exists from WIN8. */
    const struct ddi_model_field *init = ddi_model_field(r, "InitContextResource");
    assert_non_null(init);
    assert_non_null(init->nested);
    assert_int_equal(ddi_model_offset(init, arch("x86"), version("WDDM2_0")), 192);
    assert_false(ddi_vset_has(init->eff_versions, version("WIN7")));
    assert_true(ddi_vset_has(init->eff_versions, version("WIN8")));
    assert_non_null(init->owner->holder); /* held by the anonymous union's field */
    assert_true(init->owner->is_union);
}

static void test_field_through_named_type(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "D3DDDI_MAPGPUVIRTUALADDRESS");
    struct ddi_model_chain c;
    assert_int_equal(ddi_model_resolve(m, r, "Protection.NoAccess", &c), 0);
    assert_int_equal(c.depth, 2);
    assert_string_equal(c.field[0]->path, "Protection");
    assert_string_equal(c.field[0]->type_record->name, "D3DDDIGPUVIRTUALADDRESS_PROTECTION_TYPE");
    assert_int_equal(ddi_model_offset(c.field[0], arch("x64"), -1), 448);
    assert_string_equal(c.field[1]->name, "NoAccess");
    assert_int_equal(c.field[1]->bits, 1);
    assert_int_equal(ddi_model_offset(c.field[1], arch("x86"), -1), 3);
    assert_int_equal(ddi_model_resolve(m, r, "Protection.NoSuchBit", &c), -1);
    assert_int_equal(c.depth, 0);
    assert_int_equal(ddi_model_resolve(m, r, "hAllocation", &c), 0);
    assert_int_equal(c.depth, 1);
}

static void test_rule_joined_with_merge(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "D3DDDI_MAPGPUVIRTUALADDRESS");
    const struct ddi_model_rule *x = rule(r, "D3DDDI_MAPGPUVIRTUALADDRESS.hAllocation:null-when:NoAccess");
    assert_non_null(x);
    assert_int_equal(x->kind, DDI_RULE_NULL_WHEN);
    assert_ptr_equal(x->record, r);
    assert_int_equal(x->line, 39);
    assert_string_equal(x->subject, "hAllocation");
    assert_int_equal(x->subject_field.depth, 1);
    assert_string_equal(x->subject_field.field[0]->path, "hAllocation");
    assert_string_equal(x->condition, "If Protection.NoAccess is set to a value of 1");
    assert_string_equal(x->sentence,
                        "If Protection.NoAccess is set to a value of 1, this member should be set to NULL.");
    assert_string_equal(ddi_model_docs_operand(x, "ref"), "Protection.NoAccess");
    assert_int_equal(x->noperands, 1);
    assert_string_equal(x->operands[0].name, "ref");
    assert_true(x->operands[0].resolved);
    assert_int_equal(x->operands[0].target.depth, 2);
    assert_string_equal(x->operands[0].target.field[1]->name, "NoAccess");
    /* An unconditional rule has no condition. */
    const struct ddi_model_rule *nz = rule(r, "D3DDDI_MAPGPUVIRTUALADDRESS.SizeInPages:nonzero");
    assert_non_null(nz);
    assert_null(nz->condition);
}

static void test_rule_subject_through_named_type(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "DXGKARG_BUILDPAGINGBUFFER");
    const struct ddi_model_rule *x = rule(r, "DXGKARG_BUILDPAGINGBUFFER.DiscardContent.Flags.Reserved:reserved-zero");
    assert_non_null(x);
    /* The merge matched Reserved in DXGK_DISCARDCONTENTFLAGS; the subject is the page's designator. */
    assert_string_equal(x->field, "Reserved");
    assert_string_equal(x->field_record, "DXGK_DISCARDCONTENTFLAGS");
    assert_string_equal(x->subject, "DiscardContent.Flags.Reserved");
    assert_int_equal(x->subject_field.depth, 2);
    assert_string_equal(x->subject_field.field[0]->path, "DiscardContent.Flags");
    assert_string_equal(x->subject_field.field[1]->name, "Reserved");
    /* An operand the merge could not resolve. */
    const struct ddi_model_rule *u =
        rule(r, "DXGKARG_BUILDPAGINGBUFFER.MapApertureSegment2.CpuVisibleAddress:nonnull-iff");
    assert_non_null(u);
    assert_int_equal(u->noperands, 1);
    assert_false(u->operands[0].resolved);
    assert_int_equal(u->operands[0].target.depth, 0);
}

static void test_discriminator(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "DXGKARG_BUILDPAGINGBUFFER");
    const struct ddi_model_discriminator *d = r->discriminator;
    assert_non_null(d);
    assert_string_equal(d->selector, "Operation");
    assert_string_equal(d->enum_name, "DXGK_BUILDPAGINGBUFFER_OPERATION");
    assert_true(d->ncases >= 4);
    assert_int_equal(d->cases[1].number, 1);
    assert_string_equal(d->cases[1].value, "DXGK_OPERATION_FILL");
    assert_string_equal(d->cases[1].member, "Fill");
    assert_ptr_equal(d->cases[1].member_field, ddi_model_field(r, "Fill"));
}

static void test_enums_and_values(void **state)
{
    (void)state;
    const struct ddi_model_enum *e = ddi_model_enum(m, "DXGK_BUILDPAGINGBUFFER_OPERATION");
    assert_non_null(e);
    assert_ptr_equal(ddi_model_enum(m, "_DXGK_BUILDPAGINGBUFFER_OPERATION"), e); /* by tag */
    assert_string_equal(e->file, "d3dkmddi.h");
    assert_int_equal(e->line, 1530);
    assert_int_equal(e->id, 32);
    assert_true(e->nvalues >= 4);
    assert_string_equal(e->values[1].name, "DXGK_OPERATION_FILL");
    assert_int_equal(e->values[1].value, 1);
    assert_int_equal(e->values[1].id, 2);
    assert_null(e->values[1].versions_attr);
    assert_true(e->values[1].versions == ddi_vset_all(&m->where));
    const struct ddi_model_value *v = ddi_model_value(m, "DXGK_OPERATION_FILL");
    assert_ptr_equal(v, &e->values[1]);
    assert_ptr_equal(v->owner, e);
    assert_null(ddi_model_value(m, "DXGK_OPERATION_NO_SUCH"));
    /* The type of a field names the enum (the discriminator's selector). */
    const struct ddi_model_record *r = ddi_model_record(m, "DXGKARG_BUILDPAGINGBUFFER");
    assert_ptr_equal(ddi_model_type_enum(m, ddi_model_field(r, "Operation")->type), e);
    assert_ptr_equal(ddi_model_type_enum(m, "const enum _DXGK_BUILDPAGINGBUFFER_OPERATION"), e);
    assert_null(ddi_model_type_enum(m, "DXGK_BUILDPAGINGBUFFER_OPERATION *"));
}

static void test_typedefs_and_type_records(void **state)
{
    (void)state;
    assert_string_equal(ddi_model_typedef_type(m, "D3DGPU_SIZE_T"), "UINT64");
    assert_null(ddi_model_typedef_type(m, "NO_SUCH_TYPE"));
    /* typedef DXGK_NODEMETADATA DXGKARG_GETNODEMETADATA: followed to the record. */
    const struct ddi_model_record *meta = ddi_model_record(m, "DXGK_NODEMETADATA");
    assert_non_null(meta);
    assert_ptr_equal(ddi_model_type_record(m, "DXGKARG_GETNODEMETADATA"), meta);
    assert_ptr_equal(ddi_model_type_record(m, "struct _DXGK_SCHEDULINGHINTFLAGS"),
                     ddi_model_record(m, "DXGK_SCHEDULINGHINTFLAGS"));
    assert_null(ddi_model_type_record(m, "DXGK_NODEMETADATA *")); /* pointers are not followed */
    assert_null(ddi_model_type_record(m, "UINT64"));
}

static void test_function_types(void **state)
{
    (void)state;
    const struct ddi_model_functype *f = ddi_model_functype(m, "DXGKCB_ALLOCATEADL");
    assert_non_null(f);
    assert_string_equal(f->result, "NTSTATUS");
    assert_string_equal(f->file, "d3dkmddi.h");
    assert_int_equal(f->line, 3851);
    assert_int_equal(f->nparams, 2);
    assert_string_equal(f->params[0].name, "hAdapter");
    assert_string_equal(f->params[0].type, "const HANDLE");
    assert_string_equal(f->params[1].sal, "_Inout_");
    assert_true(m->nfunctypes > 1 && m->ntypedefs > 1 && m->nenums > 1);
}

static void test_spelled_and_nested_lookups(void **state)
{
    (void)state;
    const struct ddi_model_record *r = ddi_model_record(m, "DXGK_SCHEDULINGHINTFLAGS");
    /* Reserved0 was written DXGK_SCHEDHINT_RESERVED0 (a macro made the name). */
    const struct ddi_model_field *f = ddi_model_field_spelled(r, "DXGK_SCHEDHINT_RESERVED0");
    assert_non_null(f);
    assert_string_equal(f->name, "Reserved0");
    assert_ptr_equal(ddi_model_named_field(r, "Reserved0"), f);
    assert_null(ddi_model_field_spelled(r, "Reserved0"));
    assert_int_equal(f->bits, 1);
    assert_int_equal(ddi_model_first_offset(f), ddi_model_offset(f, 0, -1));
    /* Nested records by their dotted name; the anonymous fields that hold them have no name. */
    const struct ddi_model_record *u = ddi_model_record_any(m, "DXGK_SCHEDULINGHINTFLAGS.(unnamed union)");
    assert_non_null(u);
    assert_ptr_equal(u->top, r);
    assert_true(u->is_union);
    assert_string_equal(u->holder->name, "");
    assert_ptr_equal(ddi_model_record_any(m, "_DXGK_SCHEDULINGHINTFLAGS"), r);
    assert_null(ddi_model_record_any(m, "DXGK_SCHEDULINGHINTFLAGS.(no such)"));
    /* Field numbers run over every field of the model. */
    assert_true(f->index < m->nfields);
    assert_true(u->holder->index < f->index);
}

static void test_version_helpers(void **state)
{
    (void)state;
    assert_int_equal(ddi_version_wddm10("VISTA"), 10);
    assert_int_equal(ddi_version_wddm10("WIN7"), 11);
    assert_int_equal(ddi_version_wddm10("DXGKDDI_INTERFACE_VERSION_WDDM2_9"), 29);
    assert_int_equal(ddi_version_wddm10("WDDM3_1"), 31);
    assert_int_equal(ddi_version_wddm10("NOPE"), -1);
    ddi_vset s = ((ddi_vset)1 << version("WDDM2_0")) | ((ddi_vset)1 << version("WDDM3_1"));
    assert_int_equal(ddi_vset_first(s), version("WDDM2_0"));
    assert_int_equal(ddi_vset_last(s), version("WDDM3_1"));
    assert_int_equal(ddi_vset_first(0), -1);
}

/* ---- for any spec: the model against the XML ---------------------------- */

static const char *attr(xmlNodePtr n, const char *name)
{
    xmlAttrPtr a = xmlHasProp(n, BAD_CAST name);
    return a && a->children ? (const char *)a->children->content : NULL;
}

static int is(xmlNodePtr n, const char *name)
{
    return n->type == XML_ELEMENT_NODE && !strcmp((const char *)n->name, name);
}

static size_t children(xmlNodePtr n, const char *name)
{
    size_t k = 0;
    for (xmlNodePtr c = n->children; c; c = c->next)
        k += is(c, name);
    return k;
}

static xmlNodePtr part(const char *name)
{
    for (xmlNodePtr c = xmlDocGetRootElement(doc)->children; c; c = c->next)
        if (is(c, name))
            return c;
    return NULL;
}

static void test_declarations_as_written(void **state)
{
    (void)state;
    size_t enums = 0, typedefs = 0, functypes = 0;
    for (xmlNodePtr n = part("layout")->children; n; n = n->next)
        if (is(n, "enum")) {
            const struct ddi_model_enum *e = &m->enums[enums++];
            assert_ptr_equal(e->node, n);
            assert_string_equal(ddi_model_enum(m, attr(n, "name"))->name, attr(n, "name"));
            assert_int_equal(e->nvalues, children(n, "value"));
            for (size_t i = 0; i < e->nvalues; i++) /* the first value of each name */
                assert_string_equal(ddi_model_value(m, e->values[i].name)->name, e->values[i].name);
        } else if (is(n, "typedef")) {
            assert_string_equal(m->typedefs[typedefs++].type, attr(n, "type"));
            assert_non_null(ddi_model_typedef_type(m, attr(n, "name")));
        } else if (is(n, "function-type")) {
            const struct ddi_model_functype *f = &m->functypes[functypes++];
            assert_string_equal(f->name, attr(n, "name"));
            assert_int_equal(f->nparams, children(n, "param"));
        }
    assert_int_equal(enums, m->nenums);
    assert_int_equal(typedefs, m->ntypedefs);
    assert_int_equal(functypes, m->nfunctypes);
}

static void test_docs_rules_as_written(void **state)
{
    (void)state;
    size_t k = 0;
    xmlNodePtr docs = part("docs");
    for (xmlNodePtr p = docs ? docs->children : NULL; p; p = p->next)
        for (xmlNodePtr rs = is(p, "page") ? p->children : NULL; rs; rs = rs->next)
            for (xmlNodePtr r = is(rs, "rules") ? rs->children : NULL; r; r = r->next)
                if (is(r, "rule")) {
                    const struct ddi_model_docs_rule *d = &m->docs_rules[k++];
                    assert_ptr_equal(d->node, r);
                    assert_string_equal(d->kind, attr(r, "kind"));
                    assert_int_equal(d->noperands, children(r, "operand"));
                    assert_true(!children(r, "sentence") == !d->sentence);
                }
    assert_int_equal(k, m->ndocs_rules);
}

static void test_fields_numbered_and_spelled(void **state)
{
    (void)state;
    unsigned char *seen = calloc(m->nfields + 1, 1);
    size_t total = 0;
    assert_non_null(seen);
    for (size_t i = 0; i < m->nrecords; i++) {
        const struct ddi_model_record *r = m->records[i];
        for (size_t j = 0; j < r->nall; j++, total++) {
            const struct ddi_model_field *f = r->all[j];
            assert_true(f->index < m->nfields);
            assert_false(seen[f->index]);
            seen[f->index] = 1;
            const char *versions = attr(f->node, "versions");
            assert_true(!versions == !f->versions_attr);
            if (versions)
                assert_string_equal(f->versions_attr, versions);
            if (f->name && *f->name) {
                assert_non_null(ddi_model_named_field(r, f->path));
                assert_string_equal(ddi_model_named_field(r, f->path)->path, f->path);
            }
            if (f->spelled && f->name && *f->name) {
                /* the path with the macro in place of the last segment */
                char as_written[512];
                snprintf(as_written, sizeof as_written, "%.*s%s", (int)(strlen(f->path) - strlen(f->name)), f->path,
                         f->spelled);
                assert_string_equal(ddi_model_field_spelled(r, as_written)->spelled, f->spelled);
            }
            const struct ddi_model_record *t = ddi_model_type_record(m, f->type);
            if (t)
                assert_ptr_equal(t->top, t); /* only top-level records are types */
        }
    }
    assert_int_equal(total, m->nfields);
    free(seen);
}

int main(int argc, char **argv)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(test_record_sizes_by_version),
        cmocka_unit_test(test_field_offsets_per_arch),
        cmocka_unit_test(test_field_through_named_type),
        cmocka_unit_test(test_rule_joined_with_merge),
        cmocka_unit_test(test_rule_subject_through_named_type),
        cmocka_unit_test(test_discriminator),
        cmocka_unit_test(test_enums_and_values),
        cmocka_unit_test(test_typedefs_and_type_records),
        cmocka_unit_test(test_function_types),
        cmocka_unit_test(test_spelled_and_nested_lookups),
        cmocka_unit_test(test_version_helpers),
    };
    const struct CMUnitTest any_spec[] = {
        cmocka_unit_test(test_declarations_as_written),
        cmocka_unit_test(test_docs_rules_as_written),
        cmocka_unit_test(test_fields_numbered_and_spelled),
    };
    if (argc > 1) {
        spec_path = argv[1];
        return cmocka_run_group_tests_name(spec_path, any_spec, setup, teardown);
    }
    return cmocka_run_group_tests(tests, setup, teardown) | cmocka_run_group_tests(any_spec, setup, teardown);
}
