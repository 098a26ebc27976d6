/*
 * The calendar store's operations done by SQLite from C, the limit OpenEventKit's store is
 * measured against (docs/PERFORMANCE.md, issue 24). The same table, indexes, journal mode
 * (WAL), synchronous setting (NORMAL) and foreign keys as the store, copied from a calendar
 * database the store made; rows shaped like ekbench's events.
 *
 *   bench_sqlite --schema-from Calendar.sqlite [--query Calendar.sqlite] [--json]
 *
 * batched-insert  10,000 rows in one transaction into a new database; best and median of 5
 * single-commit   1,000 rows, each its own transaction (autocommit); best and median of 3
 * cold-open       open the query store read-only, mapped as the store maps it, and read one
 *                 month's rows (singles by their start index, every series row), from
 *                 sqlite3_open_v2 to the last row;
 *                 median of 20 months, each a new connection
 */
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static double now_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static void check(int rc, sqlite3 *db, const char *what) {
    if (rc != SQLITE_OK && rc != SQLITE_DONE && rc != SQLITE_ROW) {
        fprintf(stderr, "bench_sqlite: %s: %s\n", what, db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
        exit(1);
    }
}

static void exec(sqlite3 *db, const char *sql) {
    char *error = NULL;
    if (sqlite3_exec(db, sql, NULL, NULL, &error) != SQLITE_OK) {
        fprintf(stderr, "bench_sqlite: %s: %s\n", sql, error);
        exit(1);
    }
}

static int compare(const void *a, const void *b) {
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

/* A new database at path with the store's schema and its sources and calendars. */
static sqlite3 *make_database(const char *path, const char *schema_from, char *calendar_id) {
    char sql[4200];
    unlink(path);
    snprintf(sql, sizeof sql, "%.4000s-wal", path); unlink(sql);
    snprintf(sql, sizeof sql, "%.4000s-shm", path); unlink(sql);
    sqlite3 *db;
    check(sqlite3_open(path, &db), db, "open");
    exec(db, "PRAGMA journal_mode = WAL; PRAGMA synchronous = NORMAL; PRAGMA foreign_keys = ON");
    snprintf(sql, sizeof sql, "ATTACH '%.4000s' AS s", schema_from);
    exec(db, sql);
    sqlite3_stmt *statement;
    check(sqlite3_prepare_v2(db,
        "SELECT sql FROM s.sqlite_master WHERE sql IS NOT NULL AND name NOT LIKE 'sqlite_%' "
        "ORDER BY type = 'index', rowid", -1, &statement, NULL), db, "schema");
    while (sqlite3_step(statement) == SQLITE_ROW) {
        exec(db, (const char *)sqlite3_column_text(statement, 0));
    }
    sqlite3_finalize(statement);
    exec(db, "INSERT INTO source SELECT * FROM s.source; INSERT INTO calendar SELECT * FROM s.calendar");
    check(sqlite3_prepare_v2(db,
        "SELECT id FROM calendar WHERE entityMask & 1 AND allowsContentModifications LIMIT 1",
        -1, &statement, NULL), db, "calendar");
    check(sqlite3_step(statement), db, "calendar");
    snprintf(calendar_id, 64, "%s", (const char *)sqlite3_column_text(statement, 0));
    sqlite3_finalize(statement);
    exec(db, "DETACH s");
    return db;
}

static unsigned long long state = 2026;
static unsigned long long next_random(void) {
    state += 0x9E3779B97F4A7C15ULL;
    unsigned long long z = state;
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Inserts `count` one-hour events, as ekbench saves them (an identifier, the calendar, a
   title, creation times, zoned readings and keys). */
static void insert_rows(sqlite3 *db, const char *calendar_id, int count, int batch) {
    sqlite3_stmt *insert;
    check(sqlite3_prepare_v2(db,
        "INSERT INTO item (id, calendarId, kind, title, createdAt, modifiedAt, timeZone, "
        "isAllDay, startReading, endReading, startKey, endKey, availability, status, "
        "isCompleted, priority, sequence) VALUES (?, ?, 0, ?, ?, ?, 'UTC', 0, ?, ?, ?, ?, 0, 0, 0, 0, 0)",
        -1, &insert, NULL), db, "prepare insert");
    if (batch) exec(db, "BEGIN");
    for (int index = 0; index < count; index++) {
        char id[40], title[32];
        unsigned long long a = next_random(), b = next_random();
        snprintf(id, sizeof id, "%08llX-%04llX-%04llX-%04llX-%012llX", a >> 32, (a >> 16) & 0xFFFF,
                 a & 0xFFFF, b >> 48, b & 0xFFFFFFFFFFFFULL);
        snprintf(title, sizeof title, "Event %d", index);
        long long start = 1735689600LL + (long long)(next_random() % (365ULL * 86400ULL));
        double created = 1795700000.0 + index;
        sqlite3_bind_text(insert, 1, id, -1, SQLITE_TRANSIENT);
        sqlite3_bind_text(insert, 2, calendar_id, -1, SQLITE_STATIC);
        sqlite3_bind_text(insert, 3, title, -1, SQLITE_TRANSIENT);
        sqlite3_bind_double(insert, 4, created);
        sqlite3_bind_double(insert, 5, created);
        sqlite3_bind_int64(insert, 6, start);
        sqlite3_bind_int64(insert, 7, start + 3600);
        sqlite3_bind_int64(insert, 8, start);
        sqlite3_bind_int64(insert, 9, start + 3600);
        check(sqlite3_step(insert), db, "insert");
        sqlite3_reset(insert);
    }
    if (batch) exec(db, "COMMIT");
    sqlite3_finalize(insert);
}

static void report(int json, const char *name, const char *fields_json, const char *fields_text,
                   const char *note) {
    if (json) printf("{\"name\": \"%s\", %s}\n", name, fields_json);
    else printf("%-16s%-46s%s\n", name, fields_text, note);
}

static void saves(const char *schema_from, int json, int batch) {
    int runs = batch ? 5 : 3, count = batch ? 10000 : 1000;
    double rates[5];
    char path[4096], calendar_id[64];
    snprintf(path, sizeof path, "/tmp/bench_sqlite-%d.sqlite", (int)getpid());
    for (int run = 0; run < runs; run++) {
        sqlite3 *db = make_database(path, schema_from, calendar_id);
        double start = now_seconds();
        insert_rows(db, calendar_id, count, batch);
        rates[run] = count / (now_seconds() - start);
        sqlite3_close(db);
    }
    unlink(path);
    qsort(rates, runs, sizeof(double), compare);
    char fields[256], text[256];
    snprintf(fields, sizeof fields, "\"perSecond\": %.0f, \"medianPerSecond\": %.0f", rates[runs - 1],
             rates[runs / 2]);
    snprintf(text, sizeof text, "perSecond %.0f, medianPerSecond %.0f", rates[runs - 1], rates[runs / 2]);
    report(json, batch ? "batched-insert" : "single-commit", fields, text,
           batch ? "10,000 rows, one transaction; best and median of 5"
                 : "1,000 rows, a transaction each (synchronous=NORMAL); best and median of 3");
}

/* One month of the query store, read as the store's window query reads its candidates. */
static void cold_open(const char *query, int json) {
    double times[20];
    long rows = 0;
    for (int month = 0; month < 20; month++) {
        long long start = 820454400LL + (long long)month * 18 * 2629800LL, end = start + 2629800LL;
        double begin = now_seconds();
        sqlite3 *db;
        check(sqlite3_open_v2(query, &db, SQLITE_OPEN_READONLY, NULL), db, "open query store");
        /* The store's readers map the file (CalendarDatabase.mappedSize). */
        exec(db, "PRAGMA mmap_size = 268435456");
        sqlite3_stmt *singles, *series;
        check(sqlite3_prepare_v2(db,
            "SELECT * FROM item INDEXED BY item_single_start WHERE kind = 0 AND "
            "recurrenceRules IS NULL AND startKey >= ? AND startKey < ? AND endKey > ?",
            -1, &singles, NULL), db, "singles");
        sqlite3_bind_int64(singles, 1, start - 86400);
        sqlite3_bind_int64(singles, 2, end);
        sqlite3_bind_int64(singles, 3, start);
        while (sqlite3_step(singles) == SQLITE_ROW) rows++;
        check(sqlite3_prepare_v2(db,
            "SELECT * FROM item INDEXED BY item_series_start WHERE kind = 0 AND "
            "recurrenceRules IS NOT NULL AND startKey < ?", -1, &series, NULL), db, "series");
        sqlite3_bind_int64(series, 1, end);
        while (sqlite3_step(series) == SQLITE_ROW) rows++;
        sqlite3_finalize(singles);
        sqlite3_finalize(series);
        sqlite3_close(db);
        times[month] = (now_seconds() - begin) * 1000;
    }
    qsort(times, 20, sizeof(double), compare);
    char fields[256], text[256];
    snprintf(fields, sizeof fields, "\"millis\": %.3f, \"rows\": %ld", (times[9] + times[10]) / 2, rows / 20);
    snprintf(text, sizeof text, "millis %.3f, rows %ld", (times[9] + times[10]) / 2, rows / 20);
    report(json, "cold-open", fields, text,
           "open read-only and read a month's rows (no expansion); median of 20");
}

int main(int argc, char **argv) {
    const char *schema_from = NULL, *query = NULL;
    int json = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--schema-from") && i + 1 < argc) schema_from = argv[++i];
        else if (!strcmp(argv[i], "--query") && i + 1 < argc) query = argv[++i];
        else if (!strcmp(argv[i], "--json")) json = 1;
        else {
            fprintf(stderr, "usage: bench_sqlite --schema-from Calendar.sqlite [--query Calendar.sqlite] [--json]\n");
            return 2;
        }
    }
    if (!schema_from) {
        fprintf(stderr, "bench_sqlite: --schema-from names a calendar database the store made\n");
        return 2;
    }
    fprintf(stderr, "SQLite %s\n", sqlite3_libversion());
    saves(schema_from, json, 1);
    saves(schema_from, json, 0);
    if (query) cold_open(query, json);
    return 0;
}
