// OpenEventKitUI: terminal counterparts of EventKitUI (event view, event editor, calendar
// chooser, span choice, the privacy alert, agenda and month views).
//
// Not built yet: this module is empty until the terminal front end lands (issue #7).
