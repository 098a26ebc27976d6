// The system's libdbus-1 (libdbus-1-dev), which the DBus target wraps in the small Swift API
// the alarm agent uses; pkg-config (dbus-1) gives its two include folders.
#include <dbus/dbus.h>
