// A small disk for a test that may not mount one (a tmpfs needs mount rights, which root in an
// unprivileged container does not have): loaded with LD_PRELOAD into the program under test,
// it makes the regular files in SMALL_DISK_FOLDER share SMALL_DISK_BYTES, as the files of a
// file system of that size would. A write that would grow them past it writes what fits and
// then fails with ENOSPC, as the kernel's writes on a full disk do; every other write (other
// folders, pipes, terminals) goes through untouched. Built by TestSupport's SmallDisk.
//
// SQLite writes with pwrite64 (or pwrite, or write after lseek); the three are replaced.

#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

static const char *folder;
static long long capacity = -1;

__attribute__((constructor)) static void setUp(void) {
  folder = getenv("SMALL_DISK_FOLDER");
  const char *bytes = getenv("SMALL_DISK_BYTES");
  if (folder && bytes) capacity = atoll(bytes);
}

// Whether `fd` is a regular file directly in the folder; its status in `status`.
static int isOnTheDisk(int fd, struct stat *status) {
  if (capacity < 0 || fstat(fd, status) != 0 || !S_ISREG(status->st_mode)) return 0;
  char link[64];
  char path[PATH_MAX];
  snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
  ssize_t length = readlink(link, path, sizeof path - 1);
  if (length < 0) return 0;
  path[length] = 0;
  size_t prefix = strlen(folder);
  return strncmp(path, folder, prefix) == 0 && path[prefix] == '/'
    && strchr(path + prefix + 1, '/') == NULL;
}

// The bytes the folder's regular files hold.
static long long used(void) {
  DIR *directory = opendir(folder);
  if (!directory) return 0;
  long long total = 0;
  struct dirent *entry;
  while ((entry = readdir(directory)) != NULL) {
    struct stat status;
    if (fstatat(dirfd(directory), entry->d_name, &status, AT_SYMLINK_NOFOLLOW) == 0
        && S_ISREG(status.st_mode)) {
      total += status.st_size;
    }
  }
  closedir(directory);
  return total;
}

// How many of `count` bytes written at `offset` of `fd` fit: what overwrites the file takes
// no room, what grows it takes what is left.
static size_t fitting(int fd, off_t offset, size_t count) {
  struct stat status;
  if (count == 0 || !isOnTheDisk(fd, &status)) return count;
  long long end = (long long)offset + (long long)count;
  long long growth = end - (long long)status.st_size;
  if (growth <= 0) return count;
  long long room = capacity - used();
  if (room >= growth) return count;
  long long fits = (long long)status.st_size - (long long)offset + (room > 0 ? room : 0);
  return fits > 0 ? (size_t)fits : 0;
}

typedef ssize_t (*PositionedWrite)(int, const void *, size_t, off_t);
typedef ssize_t (*Write)(int, const void *, size_t);

static ssize_t positioned(const char *name, int fd, const void *buffer, size_t count,
                          off_t offset) {
  PositionedWrite real = (PositionedWrite)dlsym(RTLD_NEXT, name);
  size_t fits = fitting(fd, offset, count);
  if (fits == 0 && count > 0) {
    errno = ENOSPC;
    return -1;
  }
  return real(fd, buffer, fits, offset);
}

ssize_t pwrite64(int fd, const void *buffer, size_t count, off_t offset) {
  return positioned("pwrite64", fd, buffer, count, offset);
}

ssize_t pwrite(int fd, const void *buffer, size_t count, off_t offset) {
  return positioned("pwrite", fd, buffer, count, offset);
}

ssize_t write(int fd, const void *buffer, size_t count) {
  static Write real;
  if (!real) real = (Write)dlsym(RTLD_NEXT, "write");
  if (capacity >= 0) {
    int flags = fcntl(fd, F_GETFL);
    struct stat status;
    off_t offset = (flags >= 0 && (flags & O_APPEND) && fstat(fd, &status) == 0)
      ? status.st_size : lseek(fd, 0, SEEK_CUR);
    if (offset >= 0) {
      size_t fits = fitting(fd, offset, count);
      if (fits == 0 && count > 0) {
        errno = ENOSPC;
        return -1;
      }
      count = fits;
    }
  }
  return real(fd, buffer, count);
}
