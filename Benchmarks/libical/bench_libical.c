/*
 * bench_libical.c — times libical's RRULE expansion as a reference point
 * for OpenEventKit's own recurrence engine (ekbench).
 *
 * Every rule starts at DTSTART 2000-01-03 09:00 in America/New_York; each
 * instance the iterator yields is turned into a UTC instant (time_t) with
 * the builtin zone, so the figure covers expansion plus zone conversion.
 * Each rule is run five times and the fastest run is reported.
 *
 * If libical stops before the requested number of instances (it refuses
 * to iterate past a fixed year), the number it did produce is reported.
 *
 * Usage: bench_libical [--json] [--runs N] [--show N]
 *   --json    one JSON object per line instead of a table
 *   --runs N  runs per rule, best one kept (default 5)
 *   --show N  print the first N instances of each rule to stderr
 */
#include <libical/ical.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define TZID "America/New_York"

struct bench_case {
    const char *rule;
    long target;
};

static const struct bench_case CASES[] = {
    {"FREQ=DAILY", 1000000},
    {"FREQ=WEEKLY;BYDAY=MO,WE,FR", 1000000},
    {"FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", 100000},
    {"FREQ=YEARLY;INTERVAL=2;BYMONTH=1;BYDAY=SU", 100000},
    {"FREQ=MONTHLY;BYMONTHDAY=-1", 100000},
};

struct run_result {
    long produced;
    double seconds;
    long long checksum;       /* sum of instants: keeps the work observable */
    struct icaltimetype last; /* last local instance produced */
    time_t last_utc;
};

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct icaltimetype make_dtstart(icaltimezone *zone)
{
    struct icaltimetype t = icaltime_null_time();
    t.year = 2000;
    t.month = 1;
    t.day = 3;
    t.hour = 9;
    t.minute = 0;
    t.second = 0;
    t.is_date = 0;
    return icaltime_set_timezone(&t, zone);
}

static int run_once(struct icalrecurrencetype recur, struct icaltimetype dtstart,
                    icaltimezone *zone, long target, long show,
                    struct run_result *out)
{
    icalrecur_iterator *it;
    struct icaltimetype next;
    long produced = 0;
    long long sum = 0;
    time_t utc = 0;
    double t0, t1;

    memset(out, 0, sizeof *out);
    out->last = icaltime_null_time();

    t0 = now_seconds();
    it = icalrecur_iterator_new(recur, dtstart);
    if (it == NULL)
        return -1;
    while (produced < target) {
        next = icalrecur_iterator_next(it);
        if (icaltime_is_null_time(next))
            break;
        utc = icaltime_as_timet_with_zone(next, zone);
        sum += (long long)utc;
        if (produced < show) {
            fprintf(stderr, "  #%ld %04d-%02d-%02d %02d:%02d:%02d local -> %lld UTC\n",
                    produced + 1, next.year, next.month, next.day,
                    next.hour, next.minute, next.second, (long long)utc);
        }
        out->last = next;
        produced++;
    }
    icalrecur_iterator_free(it);
    t1 = now_seconds();

    out->produced = produced;
    out->seconds = t1 - t0;
    out->checksum = sum;
    out->last_utc = utc;
    return 0;
}

static void json_string(const char *s)
{
    putchar('"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            putchar('\\');
        putchar(*s);
    }
    putchar('"');
}

int main(int argc, char **argv)
{
    int json = 0;
    int runs = 5;
    long show = 0;
    size_t i;
    int r;
    icaltimezone *zone;
    struct icaltimetype dtstart;

    for (r = 1; r < argc; r++) {
        if (strcmp(argv[r], "--json") == 0) {
            json = 1;
        } else if (strcmp(argv[r], "--runs") == 0 && r + 1 < argc) {
            runs = atoi(argv[++r]);
            if (runs < 1)
                runs = 1;
        } else if (strcmp(argv[r], "--show") == 0 && r + 1 < argc) {
            show = atol(argv[++r]);
        } else {
            fprintf(stderr, "usage: %s [--json] [--runs N] [--show N]\n", argv[0]);
            return 2;
        }
    }

    fprintf(stderr, "libical %d.%d.%d (headers), timezone %s, best of %d runs\n",
            ICAL_MAJOR_VERSION, ICAL_MINOR_VERSION, ICAL_PATCH_VERSION, TZID, runs);

    zone = icaltimezone_get_builtin_timezone(TZID);
    if (zone == NULL) {
        fprintf(stderr, "error: libical has no builtin timezone %s\n", TZID);
        return 1;
    }
    dtstart = make_dtstart(zone);

    if (!json) {
        printf("%-46s %10s %10s %14s  %s\n", "rule", "requested", "instances",
               "per second", "last instance (local)");
    }

    for (i = 0; i < sizeof CASES / sizeof CASES[0]; i++) {
        const struct bench_case *c = &CASES[i];
        struct icalrecurrencetype recur;
        struct run_result best, cur;
        double per_second;
        int k;

        icalerror_clear_errno();
        recur = icalrecurrencetype_from_string(c->rule);
        if (recur.freq == ICAL_NO_RECURRENCE) {
            fprintf(stderr, "error: libical cannot parse %s: %s\n", c->rule,
                    icalerror_strerror(icalerrno));
            return 1;
        }

        memset(&best, 0, sizeof best);
        for (k = 0; k < runs; k++) {
            if (run_once(recur, dtstart, zone, c->target, k == 0 ? show : 0, &cur) != 0) {
                fprintf(stderr, "error: libical refused to iterate %s\n", c->rule);
                return 1;
            }
            if (k == 0 || cur.seconds < best.seconds)
                best = cur;
        }

        per_second = best.seconds > 0 ? (double)best.produced / best.seconds : 0.0;

        if (best.produced < c->target) {
            fprintf(stderr,
                    "note: %s stopped after %ld of %ld instances; last %04d-%02d-%02d %02d:%02d\n",
                    c->rule, best.produced, c->target, best.last.year, best.last.month,
                    best.last.day, best.last.hour, best.last.minute);
        }

        if (json) {
            printf("{\"rule\": ");
            json_string(c->rule);
            printf(", \"tzid\": ");
            json_string(TZID);
            printf(", \"instances\": %ld, \"perSecond\": %.0f}\n", best.produced, per_second);
        } else {
            printf("%-46s %10ld %10ld %14.0f  %04d-%02d-%02d %02d:%02d\n", c->rule, c->target,
                   best.produced, per_second, best.last.year, best.last.month,
                   best.last.day, best.last.hour, best.last.minute);
        }
        fflush(stdout);
    }
    return 0;
}
