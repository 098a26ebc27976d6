// Nothing to import: this target only supplies the entry points of the fuzz targets
// (FuzzingEntry.c).
