// The entry points of the fuzz targets.
//
// SwiftPM links every executable with `main` renamed to `<module>_main` (so that tests can
// link an executable's code), and a fuzz target has no `main` of its own: libFuzzer's driver
// is the program. Each entry below hands its arguments to that driver, with the target's
// `LLVMFuzzerTestOneInput` (a Swift function exported under that name).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*test)(const uint8_t *data, size_t size));
int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run(int argc, char **argv) {
  return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}

int fuzz_rrule_main(int argc, char **argv) { return run(argc, argv); }
int fuzz_ics_main(int argc, char **argv) { return run(argc, argv); }
int fuzz_import_main(int argc, char **argv) { return run(argc, argv); }
int fuzz_words_main(int argc, char **argv) { return run(argc, argv); }
