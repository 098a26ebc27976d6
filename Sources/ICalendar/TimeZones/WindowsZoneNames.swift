/// The time zone names Outlook and Exchange write as RFC 5545 TZIDs, mapped to the tz database.
///
/// Outlook names a zone by its Windows id, such as `W. Europe Standard Time`, or by the
/// English display name the Windows registry gives it ("Display" under
/// `HKLM\SOFTWARE\Microsoft\Windows NT\CurrentVersion\Time Zones`), such as
/// `(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna`; neither is a tz database
/// identifier.
///
/// - `ianaByWindowsName` is Unicode CLDR's `common/supplemental/windowsZones.xml`: each
///   Windows id with the zone CLDR gives it for territory "001" (its golden zone), spelled as
///   CLDR spells it (`Asia/Calcutta`, `Europe/Kiev`: links in the tz database). It adds the
///   ids Windows has retired, with the zones CLDR gave them while they were current.
/// - `windowsNameByDisplayName` is each zone's current English display name, then the
///   wordings older Windows releases wrote: `(GMT+01:00) …` before Windows 7, `(UTC) …` where
///   today's names have `(UTC+00:00)`, the `(RTZ n)` Russian names of 2014–2016, names that
///   changed with a zone's offset, British English wordings, and two common localised ones.
///
/// A display name is matched ignoring case and spacing, with `GMT` read as `UTC` and
/// `+00:00` as no offset; failing that, by its places alone when only one zone has them.
enum WindowsZoneNames {
  /// Windows zone ids and their IANA zones (CLDR windowsZones.xml, territory 001).
  static let ianaByWindowsName: [String: String] = [
    "Dateline Standard Time": "Etc/GMT+12",
    "UTC-11": "Etc/GMT+11",
    "Aleutian Standard Time": "America/Adak",
    "Hawaiian Standard Time": "Pacific/Honolulu",
    "Marquesas Standard Time": "Pacific/Marquesas",
    "Alaskan Standard Time": "America/Anchorage",
    "UTC-09": "Etc/GMT+9",
    "Pacific Standard Time (Mexico)": "America/Tijuana",
    "UTC-08": "Etc/GMT+8",
    "Pacific Standard Time": "America/Los_Angeles",
    "US Mountain Standard Time": "America/Phoenix",
    "Mountain Standard Time (Mexico)": "America/Mazatlan",
    "Mountain Standard Time": "America/Denver",
    "Yukon Standard Time": "America/Whitehorse",
    "Central America Standard Time": "America/Guatemala",
    "Central Standard Time": "America/Chicago",
    "Easter Island Standard Time": "Pacific/Easter",
    "Central Standard Time (Mexico)": "America/Mexico_City",
    "Canada Central Standard Time": "America/Regina",
    "SA Pacific Standard Time": "America/Bogota",
    "Eastern Standard Time (Mexico)": "America/Cancun",
    "Eastern Standard Time": "America/New_York",
    "Haiti Standard Time": "America/Port-au-Prince",
    "Cuba Standard Time": "America/Havana",
    "US Eastern Standard Time": "America/Indianapolis",
    "Turks And Caicos Standard Time": "America/Grand_Turk",
    "Paraguay Standard Time": "America/Asuncion",
    "Atlantic Standard Time": "America/Halifax",
    "Venezuela Standard Time": "America/Caracas",
    "Central Brazilian Standard Time": "America/Cuiaba",
    "SA Western Standard Time": "America/La_Paz",
    "Pacific SA Standard Time": "America/Santiago",
    "Newfoundland Standard Time": "America/St_Johns",
    "Tocantins Standard Time": "America/Araguaina",
    "E. South America Standard Time": "America/Sao_Paulo",
    "SA Eastern Standard Time": "America/Cayenne",
    "Argentina Standard Time": "America/Buenos_Aires",
    "Greenland Standard Time": "America/Godthab",
    "Montevideo Standard Time": "America/Montevideo",
    "Magallanes Standard Time": "America/Punta_Arenas",
    "Saint Pierre Standard Time": "America/Miquelon",
    "Bahia Standard Time": "America/Bahia",
    "UTC-02": "Etc/GMT+2",
    "Azores Standard Time": "Atlantic/Azores",
    "Cape Verde Standard Time": "Atlantic/Cape_Verde",
    "UTC": "Etc/UTC",
    "GMT Standard Time": "Europe/London",
    "Greenwich Standard Time": "Atlantic/Reykjavik",
    "Sao Tome Standard Time": "Africa/Sao_Tome",
    "Morocco Standard Time": "Africa/Casablanca",
    "W. Europe Standard Time": "Europe/Berlin",
    "Central Europe Standard Time": "Europe/Budapest",
    "Romance Standard Time": "Europe/Paris",
    "Central European Standard Time": "Europe/Warsaw",
    "W. Central Africa Standard Time": "Africa/Lagos",
    "Jordan Standard Time": "Asia/Amman",
    "GTB Standard Time": "Europe/Bucharest",
    "Middle East Standard Time": "Asia/Beirut",
    "Egypt Standard Time": "Africa/Cairo",
    "E. Europe Standard Time": "Europe/Chisinau",
    "Syria Standard Time": "Asia/Damascus",
    "West Bank Standard Time": "Asia/Hebron",
    "South Africa Standard Time": "Africa/Johannesburg",
    "FLE Standard Time": "Europe/Kiev",
    "Israel Standard Time": "Asia/Jerusalem",
    "South Sudan Standard Time": "Africa/Juba",
    "Kaliningrad Standard Time": "Europe/Kaliningrad",
    "Sudan Standard Time": "Africa/Khartoum",
    "Libya Standard Time": "Africa/Tripoli",
    "Namibia Standard Time": "Africa/Windhoek",
    "Arabic Standard Time": "Asia/Baghdad",
    "Turkey Standard Time": "Europe/Istanbul",
    "Arab Standard Time": "Asia/Riyadh",
    "Belarus Standard Time": "Europe/Minsk",
    "Russian Standard Time": "Europe/Moscow",
    "E. Africa Standard Time": "Africa/Nairobi",
    "Volgograd Standard Time": "Europe/Volgograd",
    "Iran Standard Time": "Asia/Tehran",
    "Arabian Standard Time": "Asia/Dubai",
    "Astrakhan Standard Time": "Europe/Astrakhan",
    "Azerbaijan Standard Time": "Asia/Baku",
    "Russia Time Zone 3": "Europe/Samara",
    "Mauritius Standard Time": "Indian/Mauritius",
    "Saratov Standard Time": "Europe/Saratov",
    "Georgian Standard Time": "Asia/Tbilisi",
    "Caucasus Standard Time": "Asia/Yerevan",
    "Afghanistan Standard Time": "Asia/Kabul",
    "West Asia Standard Time": "Asia/Tashkent",
    "Ekaterinburg Standard Time": "Asia/Yekaterinburg",
    "Pakistan Standard Time": "Asia/Karachi",
    "Qyzylorda Standard Time": "Asia/Qyzylorda",
    "India Standard Time": "Asia/Calcutta",
    "Sri Lanka Standard Time": "Asia/Colombo",
    "Nepal Standard Time": "Asia/Katmandu",
    "Central Asia Standard Time": "Asia/Bishkek",
    "Bangladesh Standard Time": "Asia/Dhaka",
    "Omsk Standard Time": "Asia/Omsk",
    "Myanmar Standard Time": "Asia/Rangoon",
    "SE Asia Standard Time": "Asia/Bangkok",
    "Altai Standard Time": "Asia/Barnaul",
    "W. Mongolia Standard Time": "Asia/Hovd",
    "North Asia Standard Time": "Asia/Krasnoyarsk",
    "N. Central Asia Standard Time": "Asia/Novosibirsk",
    "Tomsk Standard Time": "Asia/Tomsk",
    "China Standard Time": "Asia/Shanghai",
    "North Asia East Standard Time": "Asia/Irkutsk",
    "Singapore Standard Time": "Asia/Singapore",
    "W. Australia Standard Time": "Australia/Perth",
    "Taipei Standard Time": "Asia/Taipei",
    "Ulaanbaatar Standard Time": "Asia/Ulaanbaatar",
    "Aus Central W. Standard Time": "Australia/Eucla",
    "Transbaikal Standard Time": "Asia/Chita",
    "Tokyo Standard Time": "Asia/Tokyo",
    "North Korea Standard Time": "Asia/Pyongyang",
    "Korea Standard Time": "Asia/Seoul",
    "Yakutsk Standard Time": "Asia/Yakutsk",
    "Cen. Australia Standard Time": "Australia/Adelaide",
    "AUS Central Standard Time": "Australia/Darwin",
    "E. Australia Standard Time": "Australia/Brisbane",
    "AUS Eastern Standard Time": "Australia/Sydney",
    "West Pacific Standard Time": "Pacific/Port_Moresby",
    "Tasmania Standard Time": "Australia/Hobart",
    "Vladivostok Standard Time": "Asia/Vladivostok",
    "Lord Howe Standard Time": "Australia/Lord_Howe",
    "Bougainville Standard Time": "Pacific/Bougainville",
    "Russia Time Zone 10": "Asia/Srednekolymsk",
    "Magadan Standard Time": "Asia/Magadan",
    "Norfolk Standard Time": "Pacific/Norfolk",
    "Sakhalin Standard Time": "Asia/Sakhalin",
    "Central Pacific Standard Time": "Pacific/Guadalcanal",
    "Russia Time Zone 11": "Asia/Kamchatka",
    "New Zealand Standard Time": "Pacific/Auckland",
    "UTC+12": "Etc/GMT-12",
    "Fiji Standard Time": "Pacific/Fiji",
    "Chatham Islands Standard Time": "Pacific/Chatham",
    "UTC+13": "Etc/GMT-13",
    "Tonga Standard Time": "Pacific/Tongatapu",
    "Samoa Standard Time": "Pacific/Apia",
    "Line Islands Standard Time": "Pacific/Kiritimati",
    // Retired ids, no longer in CLDR: Kamchatka and Mid-Atlantic are still in the Windows
    // registry, marked "- Old"; the others were Windows XP's. "Mexico Standard Time 2" had
    // the rules of today's "Mountain Standard Time (Mexico)", so it takes that zone.
    "Mid-Atlantic Standard Time": "Etc/GMT+2",
    "Kamchatka Standard Time": "Asia/Kamchatka",
    "Armenian Standard Time": "Asia/Yerevan",
    "Mexico Standard Time": "America/Mexico_City",
    "Mexico Standard Time 2": "America/Mazatlan",
  ]

  /// Windows display names and the zone ids that carried them.
  static let windowsNameByDisplayName: [String: String] = [
    // The display names of current Windows releases (English, United States).
    "(UTC-12:00) International Date Line West": "Dateline Standard Time",
    "(UTC-11:00) Coordinated Universal Time-11": "UTC-11",
    "(UTC-10:00) Aleutian Islands": "Aleutian Standard Time",
    "(UTC-10:00) Hawaii": "Hawaiian Standard Time",
    "(UTC-09:30) Marquesas Islands": "Marquesas Standard Time",
    "(UTC-09:00) Alaska": "Alaskan Standard Time",
    "(UTC-09:00) Coordinated Universal Time-09": "UTC-09",
    "(UTC-08:00) Baja California": "Pacific Standard Time (Mexico)",
    "(UTC-08:00) Coordinated Universal Time-08": "UTC-08",
    "(UTC-08:00) Pacific Time (US & Canada)": "Pacific Standard Time",
    "(UTC-07:00) Arizona": "US Mountain Standard Time",
    "(UTC-07:00) La Paz, Mazatlan": "Mountain Standard Time (Mexico)",
    "(UTC-07:00) Mountain Time (US & Canada)": "Mountain Standard Time",
    "(UTC-07:00) Yukon": "Yukon Standard Time",
    "(UTC-06:00) Central America": "Central America Standard Time",
    "(UTC-06:00) Central Time (US & Canada)": "Central Standard Time",
    "(UTC-06:00) Easter Island": "Easter Island Standard Time",
    "(UTC-06:00) Guadalajara, Mexico City, Monterrey": "Central Standard Time (Mexico)",
    "(UTC-06:00) Saskatchewan": "Canada Central Standard Time",
    "(UTC-05:00) Bogota, Lima, Quito, Rio Branco": "SA Pacific Standard Time",
    "(UTC-05:00) Chetumal": "Eastern Standard Time (Mexico)",
    "(UTC-05:00) Eastern Time (US & Canada)": "Eastern Standard Time",
    "(UTC-05:00) Haiti": "Haiti Standard Time",
    "(UTC-05:00) Havana": "Cuba Standard Time",
    "(UTC-05:00) Indiana (East)": "US Eastern Standard Time",
    "(UTC-05:00) Turks and Caicos": "Turks And Caicos Standard Time",
    "(UTC-04:00) Atlantic Time (Canada)": "Atlantic Standard Time",
    "(UTC-04:00) Caracas": "Venezuela Standard Time",
    "(UTC-04:00) Cuiaba": "Central Brazilian Standard Time",
    "(UTC-04:00) Georgetown, La Paz, Manaus, San Juan": "SA Western Standard Time",
    "(UTC-04:00) Santiago": "Pacific SA Standard Time",
    "(UTC-03:30) Newfoundland": "Newfoundland Standard Time",
    "(UTC-03:00) Araguaina": "Tocantins Standard Time",
    "(UTC-03:00) Asuncion": "Paraguay Standard Time",
    "(UTC-03:00) Brasilia": "E. South America Standard Time",
    "(UTC-03:00) Cayenne, Fortaleza": "SA Eastern Standard Time",
    "(UTC-03:00) City of Buenos Aires": "Argentina Standard Time",
    "(UTC-03:00) Montevideo": "Montevideo Standard Time",
    "(UTC-03:00) Punta Arenas": "Magallanes Standard Time",
    "(UTC-03:00) Saint Pierre and Miquelon": "Saint Pierre Standard Time",
    "(UTC-03:00) Salvador": "Bahia Standard Time",
    "(UTC-02:00) Coordinated Universal Time-02": "UTC-02",
    "(UTC-02:00) Greenland": "Greenland Standard Time",
    "(UTC-02:00) Mid-Atlantic - Old": "Mid-Atlantic Standard Time",
    "(UTC-01:00) Azores": "Azores Standard Time",
    "(UTC-01:00) Cabo Verde Is.": "Cape Verde Standard Time",
    "(UTC) Coordinated Universal Time": "UTC",
    "(UTC+00:00) Dublin, Edinburgh, Lisbon, London": "GMT Standard Time",
    "(UTC+00:00) Monrovia, Reykjavik": "Greenwich Standard Time",
    "(UTC+00:00) Sao Tome": "Sao Tome Standard Time",
    "(UTC+01:00) Casablanca": "Morocco Standard Time",
    "(UTC+01:00) Amsterdam, Berlin, Bern, Rome, Stockholm, Vienna": "W. Europe Standard Time",
    "(UTC+01:00) Belgrade, Bratislava, Budapest, Ljubljana, Prague":
      "Central Europe Standard Time",
    "(UTC+01:00) Brussels, Copenhagen, Madrid, Paris": "Romance Standard Time",
    "(UTC+01:00) Sarajevo, Skopje, Warsaw, Zagreb": "Central European Standard Time",
    "(UTC+01:00) West Central Africa": "W. Central Africa Standard Time",
    "(UTC+02:00) Athens, Bucharest": "GTB Standard Time",
    "(UTC+02:00) Beirut": "Middle East Standard Time",
    "(UTC+02:00) Cairo": "Egypt Standard Time",
    "(UTC+02:00) Chisinau": "E. Europe Standard Time",
    "(UTC+02:00) Gaza, Hebron": "West Bank Standard Time",
    "(UTC+02:00) Harare, Pretoria": "South Africa Standard Time",
    "(UTC+02:00) Helsinki, Kyiv, Riga, Sofia, Tallinn, Vilnius": "FLE Standard Time",
    "(UTC+02:00) Jerusalem": "Israel Standard Time",
    "(UTC+02:00) Juba": "South Sudan Standard Time",
    "(UTC+02:00) Kaliningrad": "Kaliningrad Standard Time",
    "(UTC+02:00) Khartoum": "Sudan Standard Time",
    "(UTC+02:00) Tripoli": "Libya Standard Time",
    "(UTC+02:00) Windhoek": "Namibia Standard Time",
    "(UTC+03:00) Amman": "Jordan Standard Time",
    "(UTC+03:00) Baghdad": "Arabic Standard Time",
    "(UTC+03:00) Damascus": "Syria Standard Time",
    "(UTC+03:00) Istanbul": "Turkey Standard Time",
    "(UTC+03:00) Kuwait, Riyadh": "Arab Standard Time",
    "(UTC+03:00) Minsk": "Belarus Standard Time",
    "(UTC+03:00) Moscow, St. Petersburg": "Russian Standard Time",
    "(UTC+03:00) Nairobi": "E. Africa Standard Time",
    "(UTC+03:00) Volgograd": "Volgograd Standard Time",
    "(UTC+03:30) Tehran": "Iran Standard Time",
    "(UTC+04:00) Abu Dhabi, Muscat": "Arabian Standard Time",
    "(UTC+04:00) Astrakhan, Ulyanovsk": "Astrakhan Standard Time",
    "(UTC+04:00) Baku": "Azerbaijan Standard Time",
    "(UTC+04:00) Izhevsk, Samara": "Russia Time Zone 3",
    "(UTC+04:00) Port Louis": "Mauritius Standard Time",
    "(UTC+04:00) Saratov": "Saratov Standard Time",
    "(UTC+04:00) Tbilisi": "Georgian Standard Time",
    "(UTC+04:00) Yerevan": "Caucasus Standard Time",
    "(UTC+04:30) Kabul": "Afghanistan Standard Time",
    "(UTC+05:00) Ashgabat, Tashkent": "West Asia Standard Time",
    "(UTC+05:00) Astana": "Qyzylorda Standard Time",
    "(UTC+05:00) Ekaterinburg": "Ekaterinburg Standard Time",
    "(UTC+05:00) Islamabad, Karachi": "Pakistan Standard Time",
    "(UTC+05:30) Chennai, Kolkata, Mumbai, New Delhi": "India Standard Time",
    "(UTC+05:30) Sri Jayawardenepura": "Sri Lanka Standard Time",
    "(UTC+05:45) Kathmandu": "Nepal Standard Time",
    "(UTC+06:00) Bishkek": "Central Asia Standard Time",
    "(UTC+06:00) Dhaka": "Bangladesh Standard Time",
    "(UTC+06:00) Omsk": "Omsk Standard Time",
    "(UTC+06:30) Yangon (Rangoon)": "Myanmar Standard Time",
    "(UTC+07:00) Bangkok, Hanoi, Jakarta": "SE Asia Standard Time",
    "(UTC+07:00) Barnaul, Gorno-Altaysk": "Altai Standard Time",
    "(UTC+07:00) Hovd": "W. Mongolia Standard Time",
    "(UTC+07:00) Krasnoyarsk": "North Asia Standard Time",
    "(UTC+07:00) Novosibirsk": "N. Central Asia Standard Time",
    "(UTC+07:00) Tomsk": "Tomsk Standard Time",
    "(UTC+08:00) Beijing, Chongqing, Hong Kong, Urumqi": "China Standard Time",
    "(UTC+08:00) Irkutsk": "North Asia East Standard Time",
    "(UTC+08:00) Kuala Lumpur, Singapore": "Singapore Standard Time",
    "(UTC+08:00) Perth": "W. Australia Standard Time",
    "(UTC+08:00) Taipei": "Taipei Standard Time",
    "(UTC+08:00) Ulaanbaatar": "Ulaanbaatar Standard Time",
    "(UTC+08:45) Eucla": "Aus Central W. Standard Time",
    "(UTC+09:00) Chita": "Transbaikal Standard Time",
    "(UTC+09:00) Osaka, Sapporo, Tokyo": "Tokyo Standard Time",
    "(UTC+09:00) Pyongyang": "North Korea Standard Time",
    "(UTC+09:00) Seoul": "Korea Standard Time",
    "(UTC+09:00) Yakutsk": "Yakutsk Standard Time",
    "(UTC+09:30) Adelaide": "Cen. Australia Standard Time",
    "(UTC+09:30) Darwin": "AUS Central Standard Time",
    "(UTC+10:00) Brisbane": "E. Australia Standard Time",
    "(UTC+10:00) Canberra, Melbourne, Sydney": "AUS Eastern Standard Time",
    "(UTC+10:00) Guam, Port Moresby": "West Pacific Standard Time",
    "(UTC+10:00) Hobart": "Tasmania Standard Time",
    "(UTC+10:00) Vladivostok": "Vladivostok Standard Time",
    "(UTC+10:30) Lord Howe Island": "Lord Howe Standard Time",
    "(UTC+11:00) Bougainville Island": "Bougainville Standard Time",
    "(UTC+11:00) Chokurdakh": "Russia Time Zone 10",
    "(UTC+11:00) Magadan": "Magadan Standard Time",
    "(UTC+11:00) Norfolk Island": "Norfolk Standard Time",
    "(UTC+11:00) Sakhalin": "Sakhalin Standard Time",
    "(UTC+11:00) Solomon Is., New Caledonia": "Central Pacific Standard Time",
    "(UTC+12:00) Anadyr, Petropavlovsk-Kamchatsky": "Russia Time Zone 11",
    "(UTC+12:00) Auckland, Wellington": "New Zealand Standard Time",
    "(UTC+12:00) Coordinated Universal Time+12": "UTC+12",
    "(UTC+12:00) Fiji": "Fiji Standard Time",
    "(UTC+12:00) Petropavlovsk-Kamchatsky - Old": "Kamchatka Standard Time",
    "(UTC+12:45) Chatham Islands": "Chatham Islands Standard Time",
    "(UTC+13:00) Coordinated Universal Time+13": "UTC+13",
    "(UTC+13:00) Nuku'alofa": "Tonga Standard Time",
    "(UTC+13:00) Samoa": "Samoa Standard Time",
    "(UTC+14:00) Kiritimati Island": "Line Islands Standard Time",

    // Names that moved with a zone's offset or places (2015 to 2024).
    "(UTC-07:00) Chihuahua, La Paz, Mazatlan": "Mountain Standard Time (Mexico)",
    "(UTC-04:30) Caracas": "Venezuela Standard Time",
    "(UTC-04:00) Asuncion": "Paraguay Standard Time",
    "(UTC-03:00) Buenos Aires": "Argentina Standard Time",
    "(UTC-03:00) Greenland": "Greenland Standard Time",
    "(UTC-01:00) Cape Verde Is.": "Cape Verde Standard Time",
    "(UTC) Dublin, Edinburgh, Lisbon, London": "GMT Standard Time",
    "(UTC) Monrovia, Reykjavik": "Greenwich Standard Time",
    "(UTC) Casablanca": "Morocco Standard Time",
    "(UTC+01:00) Windhoek": "Namibia Standard Time",
    "(UTC+02:00) Amman": "Jordan Standard Time",
    "(UTC+02:00) Damascus": "Syria Standard Time",
    "(UTC+02:00) E. Europe": "E. Europe Standard Time",
    "(UTC+02:00) Istanbul": "Turkey Standard Time",
    "(UTC+04:00) Volgograd": "Volgograd Standard Time",
    "(UTC+05:00) Qyzylorda": "Qyzylorda Standard Time",
    "(UTC+06:00) Astana": "Central Asia Standard Time",
    "(UTC+10:00) Magadan": "Magadan Standard Time",
    "(UTC+08:00) Beijing, Chongqing, Hong Kong SAR, Urumqi": "China Standard Time",

    // The Russian zones as Windows named them from 2014 to 2016.
    "(UTC+02:00) Kaliningrad (RTZ 1)": "Kaliningrad Standard Time",
    "(UTC+03:00) Moscow, St. Petersburg, Volgograd (RTZ 2)": "Russian Standard Time",
    "(UTC+04:00) Izhevsk, Samara (RTZ 3)": "Russia Time Zone 3",
    "(UTC+05:00) Ekaterinburg (RTZ 4)": "Ekaterinburg Standard Time",
    "(UTC+06:00) Novosibirsk (RTZ 5)": "N. Central Asia Standard Time",
    "(UTC+07:00) Krasnoyarsk (RTZ 6)": "North Asia Standard Time",
    "(UTC+08:00) Irkutsk (RTZ 7)": "North Asia East Standard Time",
    "(UTC+09:00) Yakutsk (RTZ 8)": "Yakutsk Standard Time",
    "(UTC+10:00) Vladivostok, Magadan (RTZ 9)": "Vladivostok Standard Time",
    "(UTC+11:00) Chokurdakh (RTZ 10)": "Russia Time Zone 10",
    "(UTC+12:00) Anadyr, Petropavlovsk-Kamchatsky (RTZ 11)": "Russia Time Zone 11",

    // Windows 7 and its updates (2009 to 2014).
    "(UTC-11:00) Samoa": "Samoa Standard Time",
    "(UTC-05:00) Bogota, Lima, Quito": "SA Pacific Standard Time",
    "(UTC+02:00) Athens, Bucharest, Istanbul": "GTB Standard Time",
    "(UTC+02:00) Minsk": "E. Europe Standard Time",
    "(UTC+03:00) Kaliningrad, Minsk": "Kaliningrad Standard Time",
    "(UTC+03:00) Moscow, St. Petersburg, Volgograd": "Russian Standard Time",
    "(UTC+04:00) Moscow, St. Petersburg, Volgograd": "Russian Standard Time",
    "(UTC+05:00) Tashkent": "West Asia Standard Time",

    // Windows XP and Vista, which wrote GMT for UTC (to 2009).
    "(GMT-11:00) Midway Island, Samoa": "Samoa Standard Time",
    "(GMT-08:00) Tijuana, Baja California": "Pacific Standard Time (Mexico)",
    "(GMT-07:00) Chihuahua, La Paz, Mazatlan - New": "Mountain Standard Time (Mexico)",
    "(GMT-07:00) Chihuahua, La Paz, Mazatlan - Old": "Mexico Standard Time 2",
    "(GMT-06:00) Guadalajara, Mexico City, Monterrey - New": "Central Standard Time (Mexico)",
    "(GMT-06:00) Guadalajara, Mexico City, Monterrey - Old": "Mexico Standard Time",
    "(GMT-04:00) Georgetown, La Paz, San Juan": "SA Western Standard Time",
    "(GMT-04:00) La Paz": "SA Western Standard Time",
    "(GMT-04:00) Manaus": "Central Brazilian Standard Time",
    "(GMT-03:00) Buenos Aires, Georgetown": "SA Eastern Standard Time",
    "(GMT-03:00) Cayenne": "SA Eastern Standard Time",
    "(GMT-02:00) Mid-Atlantic": "Mid-Atlantic Standard Time",
    "(GMT) Greenwich Mean Time : Dublin, Edinburgh, Lisbon, London": "GMT Standard Time",
    "(GMT) Casablanca, Monrovia, Reykjavik": "Greenwich Standard Time",
    "(GMT+02:00) Helsinki, Kiev, Riga, Sofia, Tallinn, Vilnius": "FLE Standard Time",
    "(GMT+02:00) Athens, Beirut, Istanbul, Minsk": "GTB Standard Time",
    "(GMT+04:00) Caucasus Standard Time": "Caucasus Standard Time",
    "(GMT+05:00) Islamabad, Karachi, Tashkent": "West Asia Standard Time",
    "(GMT+06:00) Almaty, Novosibirsk": "N. Central Asia Standard Time",
    "(GMT+06:00) Astana, Dhaka": "Central Asia Standard Time",
    "(GMT+08:00) Irkutsk, Ulaan Bataar": "North Asia East Standard Time",
    "(GMT+11:00) Magadan, Solomon Is., New Caledonia": "Central Pacific Standard Time",
    "(GMT+12:00) Fiji, Kamchatka, Marshall Is.": "Fiji Standard Time",
    "(GMT+12:00) Fiji, Marshall Is.": "Fiji Standard Time",
    "(GMT+12:00) Petropavlovsk-Kamchatsky": "Kamchatka Standard Time",

    // British English wordings, and German and French names common in exported files.
    "(UTC-11:00) Co-ordinated Universal Time-11": "UTC-11",
    "(UTC-09:00) Co-ordinated Universal Time-09": "UTC-09",
    "(UTC-08:00) Co-ordinated Universal Time-08": "UTC-08",
    "(UTC-02:00) Co-ordinated Universal Time-02": "UTC-02",
    "(UTC) Co-ordinated Universal Time": "UTC",
    "(UTC+03:00) Moscow, St Petersburg": "Russian Standard Time",
    "(UTC+12:00) Co-ordinated Universal Time+12": "UTC+12",
    "(UTC+13:00) Co-ordinated Universal Time+13": "UTC+13",
    "(UTC+01:00) Amsterdam, Berlin, Bern, Rom, Stockholm, Wien": "W. Europe Standard Time",
    "(UTC+01:00) Bruxelles, Copenhague, Madrid, Paris": "Romance Standard Time",
  ]

  /// The IANA zone of a Windows zone id or display name: exact, then ignoring case and
  /// spacing (and `GMT` against `UTC` in a display name's offset), then a display name by
  /// its places alone when no other zone has those places.
  static func ianaIdentifier(forWindowsOrDisplayName name: String) -> String? {
    if let identifier = ianaByWindowsName[name] { return identifier }
    if let windows = windowsNameByDisplayName[name] { return ianaByWindowsName[windows] }
    let key = displayKey(name)
    let windows =
      windowsNamesByKey[key] ?? windowsNamesByDisplayKey[key]
      ?? windowsNamesByPlaces[places(ofKey: key)]
    return windows.flatMap { ianaByWindowsName[$0] }
  }

  /// Windows ids by their `displayKey`.
  private static let windowsNamesByKey: [String: String] = Dictionary(
    ianaByWindowsName.keys.map { (displayKey($0), $0) }, uniquingKeysWith: { min($0, $1) })

  /// Windows ids by the `displayKey` of their display names.
  private static let windowsNamesByDisplayKey: [String: String] = Dictionary(
    windowsNameByDisplayName.map { (displayKey($0.key), $0.value) },
    uniquingKeysWith: { min($0, $1) })

  /// Windows ids by the places of their display names, leaving out places that name more
  /// than one zone, such as Astana and Minsk.
  private static let windowsNamesByPlaces: [String: String] = {
    var windowsNames: [String: Set<String>] = [:]
    for (displayName, windowsName) in windowsNameByDisplayName {
      windowsNames[places(ofKey: displayKey(displayName)), default: []].insert(windowsName)
    }
    return windowsNames.compactMapValues { $0.count == 1 ? $0.first : nil }
  }()

  /// A name lowercased, its runs of whitespace made single spaces; a display name's offset
  /// without spaces, `gmt` made `utc`, and a zero offset written `(utc)`.
  private static func displayKey(_ name: String) -> String {
    let text = name.lowercased().split(whereSeparator: \.isWhitespace).joined(separator: " ")
    guard text.hasPrefix("("), let close = text.firstIndex(of: ")") else { return text }
    var offset = text[text.index(after: text.startIndex)..<close].filter { $0 != " " }
    if offset.hasPrefix("gmt") { offset = "utc" + offset.dropFirst(3) }
    if offset == "utc+00:00" || offset == "utc-00:00" { offset = "utc" }
    let places = text[text.index(after: close)...].drop { $0 == " " }
    return "(\(offset)) \(places)"
  }

  /// The places of a `displayKey`: what follows its offset.
  private static func places(ofKey key: String) -> String {
    guard key.hasPrefix("("), let close = key.firstIndex(of: ")") else { return key }
    return String(key[key.index(after: close)...].drop { $0 == " " })
  }
}
