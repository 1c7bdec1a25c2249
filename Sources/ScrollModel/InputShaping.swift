/// How scrolld shapes the input of one device before any container sees it (docs/design.md §18):
/// the settings of the `[input.devices.NAME]` rules that match the device's name, resolved.
///
/// A toolkit never knows which device a scroll came from; the engine does, so it is the one
/// place that can make a mouse wheel faster, a touchpad never fling, or a knob move row by row.
/// The engine applies it from the device's name (the `device_added` event), so a replay of a
/// log shapes exactly as the live daemon did.
public struct InputShaping: Hashable, Sendable {
    /// Multiplies horizontal wheel distances and finger/continuous deltas (`speed_x`).
    public var speedX: Double
    /// Multiplies vertical wheel distances and finger/continuous deltas (`speed_y`).
    public var speedY: Double
    /// `wheel_acceleration`: the factor a wheel event gets when the previous one in the same
    /// direction came at once; 1 turns acceleration off.
    public var wheelAcceleration: Double
    /// `wheel_acceleration_window_ms`: the time, ms, within which a previous wheel event in the
    /// same direction accelerates the next one (less the longer ago it was).
    public var wheelAccelerationWindow: Double
    /// `momentum`: false makes a release of this device's drag start no deceleration.
    public var momentum: Bool
    /// `detent`: wheel input moves in whole steps (a row, else a wheel step) per 120 of v120.
    public var detent: Bool
    /// Natural scrolling decided by the desktop (docs/design.md §23): the device's deltas are
    /// reversed on both axes.
    public var natural: Bool

    /// Settings; the defaults change nothing.
    public init(
        speedX: Double = 1, speedY: Double = 1, wheelAcceleration: Double = 1,
        wheelAccelerationWindow: Double = 100, momentum: Bool = true, detent: Bool = false,
        natural: Bool = false
    ) {
        self.speedX = speedX
        self.speedY = speedY
        self.wheelAcceleration = wheelAcceleration
        self.wheelAccelerationWindow = wheelAccelerationWindow
        self.momentum = momentum
        self.detent = detent
        self.natural = natural
    }

    /// Shaping that changes nothing: events pass as libinput reported them.
    public static let identity = InputShaping()

    /// Whether events pass unchanged, which lets the engine skip all shaping work (the
    /// acceleration window alone changes nothing while acceleration is off).
    @inlinable
    public var isIdentity: Bool {
        speedX == 1 && speedY == 1 && wheelAcceleration == 1 && momentum && !detent && !natural
    }

    /// The speed along `axis`.
    @inlinable
    public func speed(_ axis: Axis) -> Double {
        axis == .horizontal ? speedX : speedY
    }

    /// The factor deltas along `axis` are multiplied by: the speed, negative with natural
    /// scrolling.
    @inlinable
    public func factor(_ axis: Axis) -> Double {
        natural ? -speed(axis) : speed(axis)
    }

    /// `1 + (wheel_acceleration − 1)·(1 − Δt / window)` for a wheel event `dt` ms after the
    /// previous one in the same direction (docs/design.md §18), 1 at or beyond the window.
    @inlinable
    public func accelerationFactor(afterMilliseconds dt: Double) -> Double {
        guard wheelAcceleration != 1, dt < wheelAccelerationWindow else { return 1 }
        return 1 + (wheelAcceleration - 1) * (1 - dt / wheelAccelerationWindow)
    }
}
