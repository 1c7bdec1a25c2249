import ScrollModel
import ScrollProtocol

extension ContainerSettings {
    /// A container's place on a touchscreen, in the glass's normalized coordinates (`[0, 1] ×
    /// [0, 1]`: a fullscreen app divides its pixel rectangle by the screen size).
    public enum TouchFrame: Hashable, Sendable {
        /// This rectangle: `x` and `y` within −1…2, `width` and `height` within 0.0001…1.
        case frame(Rect)
        /// No frame (`{}`): the container gets no touches.
        case none

        /// The frame of `rect`, in pixels of a `screen` of that size.
        public static func pixels(_ rect: Rect, of screen: Size) -> TouchFrame {
            .frame(Rect(x: rect.origin.x / screen.width, y: rect.origin.y / screen.height,
                        width: rect.size.width / screen.width, height: rect.size.height / screen.height))
        }

        var value: ProtocolValue {
            guard case .frame(let rect) = self else { return .object([]) }
            return .object([("x", .double(rect.origin.x)), ("y", .double(rect.origin.y)),
                            ("width", .double(rect.size.width)), ("height", .double(rect.size.height))])
        }
    }
}
