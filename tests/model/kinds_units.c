/* Every rule kind's row (gen/rules/kinds.c): a kind that becomes a check has
 * a worked example, and its host evaluation and its generated C agree with
 * it; a kind that never becomes one says why. New kinds are tested by
 * adding their row, nothing else. */
#include "rules/kinds.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <string.h>
#include <cmocka.h>

static struct rules_field field(const char *path)
{
    struct rules_field f = {0};
    f.path = f.access = path;
    f.depth = 1;
    f.width[0] = f.width[1] = f.width[2] = 8;
    return f;
}

static void test_every_kind(void **state)
{
    (void)state;
    static const char *const partners[] = {"P0", "P1"};
    for (int k = 0; k < DDI_RULE_KIND_COUNT; k++) {
        const struct rules_kind *how = &rules_kinds[k];
        const char *name = ddi_rule_kind_name((enum ddi_rule_kind)k);
        assert_non_null(name);
        assert_int_equal(ddi_rule_kind_find(name), k);
        if (!how->broken) { /* never a check: it must say why */
            assert_non_null(how->unchecked);
            continue;
        }
        const struct rules_example *e = &how->example;
        assert_non_null(how->op);
        assert_non_null(how->render);
        assert_non_null(e->c);
        struct rules_check c = {.kind = name, .kind_id = (enum ddi_rule_kind)k, .how = how};
        c.value = e->value, c.min = e->min, c.max = e->max, c.has_min = e->has_min, c.has_max = e->has_max;
        c.subject = field("S");
        c.npartners = e->npartners;
        struct rules_values v = {.subject = e->subject, .npartners = e->npartners, .version = 0};
        for (int i = 0; i < e->npartners; i++) {
            c.partner[i] = field(partners[i]);
            v.partner[i] = e->partner[i];
        }
        if (how->broken(&c, &v) != e->broken)
            fail_msg("kind %s: the example should %s", name, e->broken ? "break the check" : "pass");
        struct strbuf sb = {0};
        how->render(&sb, &c);
        if (strcmp(sb_str(&sb), e->c))
            fail_msg("kind %s renders %s, expected %s", name, sb_str(&sb), e->c);
        sb_free(&sb);
    }
}

/* Each form of condition (conditions.c) over a nonzero check of S: the
 * host's verdict with the condition holding and not, and the C it adds. */
static void test_conditions(void **state)
{
    (void)state;
    static const struct {
        enum rules_cond_op op;
        long long number;
        int bits;
        unsigned long long holds, fails; /* values of W */
        const char *c, *operand;
    } forms[] = {
        {RULES_WHEN_SET, 0, 1, 1, 0, "(((unsigned long long)a->W != 0) && !((unsigned long long)a->S != 0))", "when=W"},
        {RULES_WHEN_SET, 0, 0, 7, 0, "(((unsigned long long)a->W != 0) && !((unsigned long long)a->S != 0))",
         "when=W!=0"},
        {RULES_WHEN_CLEAR, 0, 0, 0, 3, "(((unsigned long long)a->W == 0) && !((unsigned long long)a->S != 0))",
         "when=W==0"},
        {RULES_WHEN_EQUALS, 5, 0, 5, 4, "(((unsigned long long)a->W == 5ull) && !((unsigned long long)a->S != 0))",
         "when=W==E_FIVE"},
        /* a negative enumerator read zero-extended from a 4-byte enum */
        {RULES_WHEN_EQUALS, -1, 0, 0xFFFFFFFFull, 1,
         "(((unsigned long long)a->W == (unsigned long long)(-1ll)) && !((unsigned long long)a->S != 0))",
         "when=W==E_MINUS"},
    };
    for (size_t i = 0; i < sizeof forms / sizeof forms[0]; i++) {
        struct rules_check c = {.kind = "nonnull-when", .kind_id = DDI_RULE_NONNULL_WHEN,
                                .how = &rules_kinds[DDI_RULE_NONNULL_WHEN]};
        c.subject = field("S");
        c.nwhen = 1;
        c.when[0].field = field("W");
        c.when[0].field.width[0] = 4;
        c.when[0].field.bits = forms[i].bits;
        c.when[0].op = forms[i].op;
        c.when[0].number = forms[i].number;
        c.when[0].enumerator = forms[i].number < 0 ? "E_MINUS" : "E_FIVE";
        struct rules_values v = {.subject = 0, .when = {forms[i].holds}};
        if (!rules_broken(&c, &v))
            fail_msg("form %zu: S == 0 must break the check while the condition holds", i);
        v.when[0] = forms[i].fails;
        if (rules_broken(&c, &v))
            fail_msg("form %zu: the check must not apply when the condition does not hold", i);
        v.when[0] = forms[i].holds, v.subject = 1;
        if (rules_broken(&c, &v))
            fail_msg("form %zu: S != 0 passes", i);
        struct strbuf sb = {0};
        rules_render_check(&sb, &c);
        if (strcmp(sb_str(&sb), forms[i].c))
            fail_msg("form %zu renders %s, expected %s", i, sb_str(&sb), forms[i].c);
        sb.len = 0;
        rules_cond_operands(&sb, &c);
        if (strcmp(sb_str(&sb), forms[i].operand))
            fail_msg("form %zu: operands %s, expected %s", i, sb_str(&sb), forms[i].operand);
        sb_free(&sb);
    }
}

/* Several conditions are a conjunction: the check applies only when all hold. */
static void test_conjunction(void **state)
{
    (void)state;
    struct rules_check c = {.kind = "nonnull-when", .kind_id = DDI_RULE_NONNULL_WHEN,
                            .how = &rules_kinds[DDI_RULE_NONNULL_WHEN]};
    c.subject = field("S");
    c.nwhen = 2;
    c.when[0].field = field("A");
    c.when[0].op = RULES_WHEN_SET;
    c.when[1].field = field("B");
    c.when[1].op = RULES_WHEN_EQUALS;
    c.when[1].number = 3;
    c.when[1].enumerator = "E_THREE";
    struct rules_values v = {.subject = 0, .when = {1, 3}};
    assert_true(rules_broken(&c, &v));
    v.when[0] = 0;
    assert_false(rules_broken(&c, &v));
    v.when[0] = 1, v.when[1] = 2;
    assert_false(rules_broken(&c, &v));
    struct strbuf sb = {0};
    rules_render_check(&sb, &c);
    assert_string_equal(sb_str(&sb), "(((unsigned long long)a->A != 0) && ((unsigned long long)a->B == 3ull) && "
                                     "!((unsigned long long)a->S != 0))");
    sb.len = 0;
    rules_cond_operands(&sb, &c);
    assert_string_equal(sb_str(&sb), "when=A!=0;when=B==E_THREE");
    sb_free(&sb);
}

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kind), cmocka_unit_test(test_conditions),
                                       cmocka_unit_test(test_conjunction)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
