import Foundation

/// A place with a title and, optionally, coordinates and a radius: where an event happens, or
/// what a location alarm watches.
///
/// See <doc:Learn>.
open class EKStructuredLocation: EKObject, NSCopying, @unchecked Sendable {
  var values: LocationValues

  /// A location with no title yet. See <doc:Learn>.
  public override init() {
    values = LocationValues()
  }

  convenience init(values: LocationValues) {
    self.init()
    self.values = values
  }

  /// See <doc:Learn>.
  ///
  /// - Parameters:
  ///   - title: The place's name, such as an address.
  ///
  /// ```swift
  /// let office = EKStructuredLocation(title: "Office")
  /// office.geoLocation = CLLocation(latitude: 52.52, longitude: 13.40)
  /// event.structuredLocation = office
  /// ```
  public convenience init(title: String) {
    self.init(values: LocationValues(title: title))
  }

  /// The place's name or address. See <doc:Learn>.
  open var title: String? {
    get { values.title }
    set { values.title = newValue }
  }

  /// The place's coordinates; nil when it has none. Differs from Apple's: `CLLocation` is
  /// OpenEventKit's stand-in, and only the coordinate is kept. See
  /// <doc:SavingAndBatching>.
  open var geoLocation: CLLocation? {
    get {
      guard let latitude = values.latitude, let longitude = values.longitude else { return nil }
      return CLLocation(latitude: latitude, longitude: longitude)
    }
    set {
      values.latitude = newValue?.coordinate.latitude
      values.longitude = newValue?.coordinate.longitude
    }
  }

  /// The radius in metres; 0 means the system's default. See <doc:Learn>.
  open var radius: Double {
    get { values.radius }
    set { values.radius = newValue }
  }

  /// A new location with the same values.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: An `EKStructuredLocation`.
  public func copy(with zone: NSZone? = nil) -> Any { EKStructuredLocation(values: values) }

  /// Whether `object` is a location with the same title, coordinates and radius.
  ///
  /// See <doc:EventKitCompatibility>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True when every value is equal.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? EKStructuredLocation)?.values == values
  }

  /// A hash of the values, matching ``isEqual(_:)``.
  open override var hash: Int { values.hashValue }

  /// A short summary for debugging: title and radius.
  open override var description: String {
    "EKStructuredLocation(title: \(values.title ?? "nil"), radius: \(values.radius))"
  }
}
