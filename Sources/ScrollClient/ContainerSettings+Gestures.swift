import ScrollModel
import ScrollProtocol

extension ContainerSettings {
    /// docs/design.md §22's container keys: the directional lock, bounce, snapping and the scroll
    /// indicators. Keys left nil stay as they are.
    public struct Gestures: Hashable, Sendable {
        /// `directionalLock`: a drag on a two-axis container moves along the axis it started
        /// along, when within 22.5° of it.
        public var directionalLock: Bool?
        /// `bounce`: ``BounceBehavior/basedOnSize`` leaves an axis whose content fits alone.
        public var bounce: BounceBehavior?
        /// `snapType`: ``SnapType/proximity`` snaps only near a snap point.
        public var snapType: SnapType?
        /// `snapProximity`, px: how near (default a third of the container's length).
        public var snapProximity: Double?
        /// `snapStop`: a fling never passes a snap point.
        public var snapStop: Bool?
        /// `indicatorMinLength`, px (default 36).
        public var indicatorMinLength: Double?
        /// `indicatorLingerMs` (default 500).
        public var indicatorLingerMilliseconds: Double?

        /// Gesture settings from their keys.
        public init(
            directionalLock: Bool? = nil, bounce: BounceBehavior? = nil, snapType: SnapType? = nil,
            snapProximity: Double? = nil, snapStop: Bool? = nil, indicatorMinLength: Double? = nil,
            indicatorLingerMilliseconds: Double? = nil
        ) {
            self.directionalLock = directionalLock
            self.bounce = bounce
            self.snapType = snapType
            self.snapProximity = snapProximity
            self.snapStop = snapStop
            self.indicatorMinLength = indicatorMinLength
            self.indicatorLingerMilliseconds = indicatorLingerMilliseconds
        }

        /// Later keys win over earlier ones.
        func merged(with later: Gestures) -> Gestures {
            Gestures(
                directionalLock: later.directionalLock ?? directionalLock, bounce: later.bounce ?? bounce,
                snapType: later.snapType ?? snapType, snapProximity: later.snapProximity ?? snapProximity,
                snapStop: later.snapStop ?? snapStop, indicatorMinLength: later.indicatorMinLength ?? indicatorMinLength,
                indicatorLingerMilliseconds: later.indicatorLingerMilliseconds ?? indicatorLingerMilliseconds
            )
        }

        /// The request's members, camelCase as the protocol writes them.
        var members: [(String, ProtocolValue)] {
            var members: [(String, ProtocolValue)] = []
            if let directionalLock { members.append(("directionalLock", .bool(directionalLock))) }
            if let bounce { members.append(("bounce", .string(bounce.rawValue))) }
            if let snapType { members.append(("snapType", .string(snapType.rawValue))) }
            if let snapProximity { members.append(("snapProximity", .double(snapProximity))) }
            if let snapStop { members.append(("snapStop", .bool(snapStop))) }
            if let indicatorMinLength { members.append(("indicatorMinLength", .double(indicatorMinLength))) }
            if let indicatorLingerMilliseconds { members.append(("indicatorLingerMs", .double(indicatorLingerMilliseconds))) }
            return members
        }
    }
}

extension ScrollClient {
    /// Shows the container's scroll indicators for their linger time (SwiftUI's
    /// `flashScrollIndicators`, docs/design.md §22): its subscribers see a state with them
    /// visible, and one when they hide.
    public func flashIndicators(_ container: String) async throws(ScrollClientError) {
        let request = RequestLine("flashIndicators", [("container", .string(container))])
        let received = try await connection.request(request, effect: nil)
        guard case .ok = received.reply else { throw Self.unexpected(received.reply, for: request.op) }
    }
}
