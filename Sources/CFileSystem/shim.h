// statfs(2), which Glibc's Swift module leaves out: the store asks what kind of file system
// holds the calendar database before it maps the file (CalendarDatabase.mayMap).
#include <sys/vfs.h>
