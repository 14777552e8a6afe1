import JSONCodec
import MicroHTTP

extension StackService {
    /// `GET /v1/devices`: the built-in devices `?devices=` and a layout body's `devices` take,
    /// `{"devices": [{"name", "width", "height", "platform", "orientation", "safeArea"}]}`,
    /// each model upright and turned (`Device.catalog`).
    func listDevices(_ c: RequestContext) throws(APIError) -> HTTPResponse {
        try c.allowQuery([])
        var w = JSONWriter(capacity: 160 * Device.catalog.count)
        w.beginObject()
        w.key(ascii: "devices")
        w.beginArray()
        for device in Device.catalog { ModelEncoding.writeDevice(device, into: &w) }
        w.endArray()
        w.endObject()
        return .json(200, text: w.take(), headers: [("Cache-Control", "public, max-age=300")])
    }
}
