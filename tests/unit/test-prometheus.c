/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * test-prometheus.c - the metrics of out/prometheus.c on devices built in
 * memory: each metric's HELP and TYPE once, before all its series, also
 * when the devices come in batches freed in between (a streamed run);
 * label values escaped as the text format wants (\\, \", \n); a device
 * given twice said once; two findings of one code, severity and layer
 * one series of value 2; the run's time a value, never a timestamp.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* table.h (system and cmocka headers) before banned.h via blkalignP.h */
#include "table.h"

#include "blkalignP.h"

/* A device of one disk layer (soft block size @sbs) and @nwarn
 * soft-block-size warnings on it. */
static void add_device(struct blkalign_report *r, const char *name,
		       uint32_t sbs, int nwarn)
{
	struct ba_device *d = ba_report_add_device(r);
	struct blkalign_layer *l;

	assert_non_null(d);
	d->pub.name = d->pub.path = name;
	d->pub.size = 8 * 1024 * 1024;
	d->pub.image_format = "raw";
	l = ba_device_add_layer(d);
	assert_non_null(l);
	l->name = name;
	l->kind = BLKALIGN_LAYER_DISK;
	l->size = d->pub.size;
	l->soft_block_size = sbs;
	for (int i = 0; i < nwarn; i++) {
		struct ba_finding *f = ba_device_add_finding(
			d, BA_CODE_SOFT_BLOCK_SIZE, BLKALIGN_WARNING, 0);

		assert_non_null(f);
		ba_finding_say(f, BA_T_NOTHING_TO_DO, BA_T_NOTHING_TO_DO,
			       BA_T_NOTHING_TO_DO);
	}
	ba_check_finish(r, r->ndevices - 1);
}

static char *written(struct blkalign_prometheus *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(blkalign_prometheus_write(p, out), 0);
	fclose(out);
	return text;
}

static int count(const char *text, const char *what)
{
	int n = 0;

	for (const char *s = text; (s = strstr(s, what)); s++)
		n++;
	return n;
}

/* Every sample line has two fields, and every HELP comes before any
 * sample of its metric and only once. */
static void check_format(const char *text)
{
	char *copy = strdup(text), *save = NULL;
	char seen[16][96];
	int nseen = 0;

	assert_non_null(copy);
	for (char *line = strtok_r(copy, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char name[96];

		if (!strncmp(line, "# HELP ", 7)) {
			assert_int_equal(sscanf(line + 7, "%95s", name), 1);
			for (int i = 0; i < nseen; i++)
				assert_string_not_equal(seen[i], name);
			assert_true(nseen < 16);
			snprintf(seen[nseen++], sizeof(seen[0]), "%s", name);
			continue;
		}
		if (line[0] == '#')
			continue;
		/* the value is the last field, after the labels' brace */
		{
			const char *end = strrchr(line, '}');
			const char *v = strchr(end ? end : line, ' ');
			size_t n = strcspn(line, "{ ");

			assert_non_null(v);
			assert_null(strchr(v + 1, ' '));
			assert_true(n < sizeof(name));
			memcpy(name, line, n);
			name[n] = '\0';
			assert_true(nseen > 0);
			assert_string_equal(seen[nseen - 1], name);
		}
	}
	assert_int_equal(nseen, 8);
	free(copy);
}

static void test_empty(void **state)
{
	struct blkalign_prometheus *p = blkalign_prometheus_new();
	char *text;

	(void)state;
	blkalign_prometheus_set_time(p, 1234567890);
	text = written(p);
	check_format(text);
	assert_non_null(strstr(text, "\nblkalign_devices_audited 0\n"));
	assert_non_null(strstr(
		text, "\nblkalign_last_run_timestamp_seconds 1234567890\n"));
	assert_non_null(strstr(
		text, "\nblkalign_info{version=\"" BLKALIGN_VERSION "\"} 1\n"));
	assert_int_equal(count(text, "# TYPE "), 8);
	assert_int_equal(count(text, " gauge\n"), 8);
	free(text);
	blkalign_prometheus_free(p);
}

/* Batches freed in between give the text of all the devices at once. */
static void test_streamed(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	struct blkalign_report *whole = blkalign_report_new(ctx);
	struct blkalign_prometheus *ps = blkalign_prometheus_new();
	struct blkalign_prometheus *pw = blkalign_prometheus_new();
	static const char *const names[] = {"a.img", "b.img", "c.img"};
	char *s, *w;

	(void)state;
	for (int i = 0; i < 3; i++) {
		add_device(r, names[i], i == 1 ? 512 : 4096, i == 1);
		add_device(whole, names[i], i == 1 ? 512 : 4096, i == 1);
		assert_int_equal(blkalign_prometheus_add(ps, r), 0);
		blkalign_report_clear(r);
	}
	assert_int_equal(blkalign_prometheus_add(pw, whole), 0);
	blkalign_prometheus_set_time(ps, 1);
	blkalign_prometheus_set_time(pw, 1);
	s = written(ps);
	w = written(pw);
	assert_string_equal(s, w);
	check_format(s);
	assert_non_null(strstr(s, "\nblkalign_devices_audited 3\n"));
	assert_non_null(strstr(
		s, "\nblkalign_finding{device=\"b.img\",layer=\"b.img\","
		   "code=\"soft-block-size\",severity=\"warning\"} 1\n"));
	assert_non_null(
		strstr(s, "\nblkalign_soft_block_size_bytes{device=\"b.img\","
			  "layer=\"b.img\"} 512\n"));
	assert_int_equal(count(s, "\nblkalign_audit_incomplete{"), 3);
	assert_int_equal(count(s, " 0\n"), 3);
	free(s);
	free(w);
	blkalign_prometheus_free(ps);
	blkalign_prometheus_free(pw);
	blkalign_report_unref(r);
	blkalign_report_unref(whole);
	blkalign_ctx_unref(ctx);
}

/* Escapes; a device twice said once; two findings alike: value 2. */
static void test_labels(void **state)
{
	struct blkalign_ctx *ctx = blkalign_ctx_new();
	struct blkalign_report *r = blkalign_report_new(ctx);
	struct blkalign_prometheus *p = blkalign_prometheus_new();
	char *text;

	(void)state;
	add_device(r, "a\"b\\c\nd", 4096, 2);
	add_device(r, "a\"b\\c\nd", 4096, 0);
	assert_int_equal(blkalign_prometheus_add(p, r), 0);
	text = written(p);
	check_format(text);
	assert_non_null(strstr(text, "\nblkalign_devices_audited 1\n"));
	assert_non_null(strstr(text, "\nblkalign_audit_incomplete{device="
				     "\"a\\\"b\\\\c\\nd\"} 0\n"));
	assert_non_null(strstr(text, "\nblkalign_finding{device=\"a\\\"b\\\\c"
				     "\\nd\",layer=\"a\\\"b\\\\c\\nd\",code="
				     "\"soft-block-size\",severity="
				     "\"warning\"} 2\n"));
	assert_int_equal(count(text, "\nblkalign_finding{"), 1);
	assert_int_equal(count(text, "\nblkalign_soft_block_size_bytes{"), 1);
	free(text);
	assert_int_equal(blkalign_prometheus_add(NULL, r), -EINVAL);
	assert_int_equal(blkalign_prometheus_write(p, NULL), -EINVAL);
	blkalign_prometheus_free(p);
	blkalign_report_unref(r);
	blkalign_ctx_unref(ctx);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_streamed),
		cmocka_unit_test(test_labels),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
