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

int main(void)
{
    const struct CMUnitTest tests[] = {cmocka_unit_test(test_every_kind)};
    return cmocka_run_group_tests(tests, NULL, NULL);
}
