import ScrollModel

extension ScrollAnimation {
    /// Appends the animation as a request carries it: a preset's name when it is one, else a
    /// spring by the duration and bounce it was made from, or by stiffness and damping for one
    /// made from those: either way the decoder rebuilds it bit for bit.
    func encode(into buffer: inout [UInt8]) {
        switch self {
        case .none:
            JSONOutput.raw("\"none\"", &buffer)
        case .smooth:
            JSONOutput.raw("\"smooth\"", &buffer)
        case .snappy:
            JSONOutput.raw("\"snappy\"", &buffer)
        case .bouncy:
            JSONOutput.raw("\"bouncy\"", &buffer)
        case .spring(let spring):
            if let parameters = spring.parameters {
                JSONOutput.raw("{\"spring\":{\"duration\":", &buffer)
                JSONOutput.double(parameters.duration, &buffer)
                JSONOutput.raw(",\"bounce\":", &buffer)
                JSONOutput.double(parameters.bounce, &buffer)
            } else {
                JSONOutput.raw("{\"spring\":{\"stiffness\":", &buffer)
                JSONOutput.double(spring.stiffness, &buffer)
                JSONOutput.raw(",\"damping\":", &buffer)
                JSONOutput.double(spring.damping, &buffer)
            }
            JSONOutput.raw("}}", &buffer)
        }
    }
}
