/* The plain front-matter reader against libyaml: wherever the plain reader
 * takes a text it must give exactly what libyaml gives, and it must take
 * nearly every real page (else the fast path is gone unnoticed). Cases
 * outside its shape must be declined, so libyaml reads them. */
#include "docs_test_util.h"
#include "front_matter.h"

#include <dirent.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

static int same_str(const char *a, const char *b)
{
    return (!a && !b) || (a && b && !strcmp(a, b));
}

static int same_values(const struct fm_values *a, const struct fm_values *b)
{
    return same_str(a->uid, b->uid) && same_str(a->title, b->title) &&
           same_str(a->description, b->description) && same_str(a->header, b->header) &&
           same_str(a->typenames, b->typenames) && same_str(a->client, b->client) &&
           same_str(a->server, b->server) && same_str(a->api_last, b->api_last) &&
           same_str(a->irql, b->irql) && a->description_line == b->description_line &&
           a->avail_line == b->avail_line;
}

/* 1 when the plain reader took the text (and agreed with libyaml), 0 when
 * it declined; fails the test when they disagree. */
static int compare_readers(const char *what, const char *fm, size_t len)
{
    struct arena a = {0};
    struct fm_values plain = {0}, yaml = {0};
    int took = fm_read_plain(fm, len, &a, &plain);
    if (took) {
        char err[256];
        unsigned line = 0;
        int rc = fm_read_yaml(fm, len, &a, &yaml, &line, err, sizeof err);
        if (rc != 0)
            fail_msg("%s: the plain reader took text libyaml refuses (%d, line %u: %s)", what, rc, line,
                     rc == -1 ? err : "not a mapping");
        if (!same_values(&plain, &yaml))
            fail_msg("%s: plain and libyaml readers disagree (title '%s' / '%s', header '%s' / '%s', "
                     "api_last '%s' / '%s')",
                     what, plain.title ? plain.title : "(null)", yaml.title ? yaml.title : "(null)",
                     plain.header ? plain.header : "(null)", yaml.header ? yaml.header : "(null)",
                     plain.api_last ? plain.api_last : "(null)", yaml.api_last ? yaml.api_last : "(null)");
    }
    arena_free(&a);
    return took;
}

/* The front matter of a page file (CRLF read as LF, as the reader sees it). */
static char *front_matter_of(const char *path, size_t *len)
{
    size_t n;
    char *raw = dt_slurp(path, &n);
    if (!raw)
        return NULL;
    size_t w = 0;
    for (size_t i = 0; i < n; i++)
        if (!(raw[i] == '\r' && i + 1 < n && raw[i + 1] == '\n'))
            raw[w++] = raw[i];
    raw[w] = '\0';
    char *end = strncmp(raw, "---\n", 4) ? NULL : strstr(raw + 4, "\n---");
    if (!end) {
        free(raw);
        return NULL;
    }
    *len = (size_t)(end + 1 - (raw + 4));
    memmove(raw, raw + 4, *len);
    raw[*len] = '\0';
    return raw;
}

/* Every .md page under dir: counts pages and those the plain reader took. */
static void compare_folder(const char *dir, unsigned *pages, unsigned *took)
{
    DIR *d = opendir(dir);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d))) {
        char path[4096];
        size_t n = strlen(e->d_name);
        if (e->d_name[0] == '.')
            continue;
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (n < 3 || strcmp(e->d_name + n - 3, ".md")) {
            compare_folder(path, pages, took); /* not a directory: opendir fails */
            continue;
        }
        size_t len;
        char *fm = front_matter_of(path, &len);
        if (!fm)
            continue;
        (*pages)++;
        *took += (unsigned)compare_readers(path, fm, len);
        free(fm);
    }
    closedir(d);
}

static void real_pages_take_the_plain_path(void **state)
{
    (void)state;
    const char *dir = DDIGEN_SHARED_DIR "/ddi-docs";
    if (!dt_shared_present(dir, "the reference pages"))
        skip();
    unsigned pages = 0, took = 0;
    compare_folder(dir, &pages, &took);
    printf("front matter: %u of %u pages read by the plain reader, the same as libyaml\n", took, pages);
    assert_true(pages >= 800);
    assert_true(took * 100 >= pages * 95);
}

static void fixture_pages_agree(void **state)
{
    (void)state;
    unsigned pages = 0, took = 0;
    compare_folder(DDIGEN_DOCS_FIXTURES, &pages, &took);
    compare_folder(DDIGEN_DOCS_FIXTURES "/../docs-validate", &pages, &took);
    printf("front matter: %u of %u fixture pages read by the plain reader\n", took, pages);
    assert_true(pages > 0);
}

/* Texts in the plain shape: both readers must give the same values. */
static const char *const plain_cases[] = {
    "UID: NS:hdr._WIDGET\ntitle: WIDGET (hdr.h)\ndescription: A widget.\nreq.header: hdr.h\n",
    /* empty values, trailing spaces, a blank line, spaces after the colon */
    "UID: NS:x\ntitle:\nreq.header: \nreq.typenames:   WIDGET, *PWIDGET  \n\nreq.irql: PASSIVE_LEVEL\n",
    /* sequences at column 0 and indented, blank lines between items */
    "api_name:\n- _WIDGET\n- WIDGET\napi_location:\n  - hdr.h\n\n  - other.h\nUID: u\n",
    /* api_location gives the header only when req.header did not */
    "req.header: a.h\napi_location:\n - b.h\n",
    "api_location:\n - b.h\nreq.header: a.h\n",
    /* api_name as a scalar clears the name, as with libyaml */
    "api_name:\n - A\n - B\napi_name: C\n",
    /* one-line flow sequences of quoted strings, an empty one */
    "keywords: [\"WIDGET structure\", \"x\"]\napi_name: [\"_W\" , \"W\"]\nf1_keywords: []\n",
    /* quoted scalars */
    "title: \"WIDGET: the structure\"\nms.keywords: \"*PW, W, W structure [Display]\"\n",
    /* plain scalars with characters that are only special elsewhere */
    "description: Learn more about WIDGET (a, b, c) - 50% C# x:y a :b a#b.\n",
    /* UTF-8: a no-break space, typographic quotes, accents, CJK */
    "req.target-min-winverclnt: Windows\xc2\xa0" "10\ntitle: \xe2\x80\x9cW\xe2\x80\x9d caf\xc3\xa9" " "
    "\xe7\xbb\x93\xe6\x9e\x84\nkeywords: [\"\xc3\xa9\"]\n",
    /* duplicate keys: the later wins */
    "title: one\ntitle: two\nreq.target-min-winversvr: Windows Server 2016\n"
    "req.target-min-winverclnt: Windows 10\n",
    /* a key with an empty value before a sequence that belongs to the next key */
    "topic_type:\napi_type:\n - HeaderDef\ntitle: t\n",
};

static void plain_shape_agrees_with_libyaml(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof plain_cases / sizeof *plain_cases; i++) {
        char what[32];
        snprintf(what, sizeof what, "plain case %zu", i);
        if (!compare_readers(what, plain_cases[i], strlen(plain_cases[i])))
            fail_msg("%s was declined by the plain reader:\n%s", what, plain_cases[i]);
    }
}

/* Valid or invalid YAML outside the shape: declined, for libyaml to read. */
static const char *const declined_cases[] = {
    "# a comment\ntitle: t\n",
    "title: t # a comment\n",
    "title: \"with \\\"escapes\\\"\"\n",
    "title: 'single quoted'\n",
    "title: a multi-line\n  plain scalar\n",
    "title:\n  on the next line\n",
    "title: |\n  literal\n",
    "title: >\n  folded\n",
    "title: &anchor t\nother: *anchor\n",
    "title: !tag t\n",
    "title: a: b\n",
    "title: ends with a colon:\n",
    "title:\ttab\n",
    "title: line\xe2\x80\xa8separator\n",
    "title: next\xc2\x85line\n",
    "title: \xef\xbb\xbf" "bom\n",
    "title: four-byte \xf0\x9f\x98\x80\n",
    "title: cut \xc3\n",
    "title: overlong \xc0\xaf\n",
    "title: surrogate \xed\xa0\x80\n",
    "title: cr\r\n",
    "api_name:\n - a\n  - b\n",
    "api_name:\n - a\n- b\n",
    "api_name:\n -\n",
    "api_name:\n - key: value\n",
    "api_name:\n -a\n",
    "keywords: [plain, items]\n",
    "keywords: [\"a\",]\n",
    "keywords: [\"a\"] trailing\n",
    "keywords: [\"a\",\n  \"b\"]\n",
    "keywords: {a: b}\n",
    "  indented: key\n",
    "\"quoted key\": v\n",
    "key : v\n",
    "key:v\n",
    "- a\n- b\n",
    "just a scalar\n",
    "",
    "\n\n",
    "---\ntitle: t\n",
    "title: -1\n",
    "title: ?x\n",
    "title: \"unterminated\n",
};

static void other_shapes_are_declined(void **state)
{
    (void)state;
    for (size_t i = 0; i < sizeof declined_cases / sizeof *declined_cases; i++) {
        struct arena a = {0};
        struct fm_values v = {0};
        if (fm_read_plain(declined_cases[i], strlen(declined_cases[i]), &a, &v))
            fail_msg("declined case %zu was taken by the plain reader:\n%s", i, declined_cases[i]);
        arena_free(&a);
    }
}

/* A page whose front matter is invalid YAML still gets libyaml's error. */
static void invalid_yaml_still_reports(void **state)
{
    (void)state;
    struct arena a = {0};
    struct fm_values v = {0};
    const char *bad = "title: ok\ntitle: a: b\n";
    char err[256];
    unsigned line = 0;
    assert_false(fm_read_plain(bad, strlen(bad), &a, &v));
    assert_int_equal(fm_read_yaml(bad, strlen(bad), &a, &v, &line, err, sizeof err), -1);
    assert_int_equal(line, 3);
    arena_free(&a);
}

int main(void)
{
    const struct CMUnitTest tests[] = {
        cmocka_unit_test(plain_shape_agrees_with_libyaml),
        cmocka_unit_test(other_shapes_are_declined),
        cmocka_unit_test(invalid_yaml_still_reports),
        cmocka_unit_test(fixture_pages_agree),
        cmocka_unit_test(real_pages_take_the_plain_path),
    };
    return cmocka_run_group_tests(tests, NULL, NULL);
}
