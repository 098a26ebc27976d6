// book-club, the model sample of WritingASample.md: each EventKit pattern in its own file.
import OpenEventKitApp

let app = AppInfo(name: "book-club", prompt: "club> ", about: "Plans a book club's meetings.")
app.run(diagnostics: .standardError) { ClubCommands(session: $0).all }
