import Foundation

/// Latitude or longitude in degrees, as CoreLocation names it. See <doc:SavingAndBatching>.
public typealias CLLocationDegrees = Double
/// A distance in metres, as CoreLocation names it. See <doc:SavingAndBatching>.
public typealias CLLocationDistance = Double

/// A stand-in for CoreLocation's coordinate, which Linux lacks.
///
/// An OpenEventKit stand-in, not Apple's type. See <doc:SavingAndBatching>.
public struct CLLocationCoordinate2D: Hashable, Sendable {
  /// Degrees north of the equator; negative is south. See <doc:SavingAndBatching>.
  public var latitude: CLLocationDegrees
  /// Degrees east of Greenwich; negative is west. See <doc:SavingAndBatching>.
  public var longitude: CLLocationDegrees

  /// The coordinate 0, 0. See <doc:SavingAndBatching>.
  public init() {
    latitude = 0
    longitude = 0
  }

  /// A coordinate from its latitude and longitude. See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - latitude: Degrees north; negative is south.
  ///   - longitude: Degrees east; negative is west.
  ///
  /// ```swift
  /// let paris = CLLocationCoordinate2D(latitude: 48.8566, longitude: 2.3522)
  /// ```
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    self.latitude = latitude
    self.longitude = longitude
  }
}

/// A stand-in for CoreLocation's `CLLocation`, which Linux lacks: a point on Earth, as an
/// `EKStructuredLocation.geoLocation` holds it.
///
/// An OpenEventKit stand-in, not Apple's type: only these members exist. See
/// <doc:SavingAndBatching>.
open class CLLocation: NSObject, NSCopying, @unchecked Sendable {
  /// The point's latitude and longitude. See <doc:SavingAndBatching>.
  public let coordinate: CLLocationCoordinate2D

  /// A location at a latitude and longitude. See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - latitude: Degrees north; negative is south.
  ///   - longitude: Degrees east; negative is west.
  ///
  /// ```swift
  /// let place = EKStructuredLocation(title: "Corner shop")
  /// place.geoLocation = CLLocation(latitude: 48.8606, longitude: 2.3376)
  /// ```
  public init(latitude: CLLocationDegrees, longitude: CLLocationDegrees) {
    coordinate = CLLocationCoordinate2D(latitude: latitude, longitude: longitude)
  }

  /// The great-circle distance in metres (haversine, on a sphere of Earth's mean radius).
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - location: The other point.
  /// - Returns: The distance in metres.
  ///
  /// ```swift
  /// let here = CLLocation(latitude: 48.8584, longitude: 2.2945)
  /// let metres = here.distance(from: CLLocation(latitude: 48.8606, longitude: 2.3376))
  /// ```
  open func distance(from location: CLLocation) -> CLLocationDistance {
    let radians = Double.pi / 180
    let (lat1, lat2) = (coordinate.latitude * radians, location.coordinate.latitude * radians)
    let dLat = lat2 - lat1
    let dLon = (location.coordinate.longitude - coordinate.longitude) * radians
    let a = sin(dLat / 2) * sin(dLat / 2) + cos(lat1) * cos(lat2) * sin(dLon / 2) * sin(dLon / 2)
    return 2 * 6_371_008.8 * atan2(a.squareRoot(), (1 - a).squareRoot())
  }

  /// The location itself: it is immutable.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - zone: Ignored.
  /// - Returns: This location.
  public func copy(with zone: NSZone? = nil) -> Any { self }

  /// Whether `object` is a location with the same coordinate.
  ///
  /// See <doc:SavingAndBatching>.
  ///
  /// - Parameters:
  ///   - object: The object to compare with.
  /// - Returns: True for the same point.
  open override func isEqual(_ object: Any?) -> Bool {
    (object as? CLLocation)?.coordinate == coordinate
  }

  /// A hash of the coordinate, matching ``isEqual(_:)``.
  open override var hash: Int { coordinate.hashValue }

  /// `<latitude,longitude>`, for debugging.
  open override var description: String {
    "<\(coordinate.latitude),\(coordinate.longitude)>"
  }
}
