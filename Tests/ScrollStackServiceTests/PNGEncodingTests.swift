import ScrollStackCore
import ScrollStackRender
import XCTest

/// The PNG writer under `layout.png`: RGB for an opaque picture, RGBA with colours
/// un-premultiplied for a translucent one, read back by an independent decoder (`PNGImage`)
/// that checks every chunk's CRC.
final class PNGEncodingTests: XCTestCase {
    func testAnOpaquePictureIsRGBWithItsExactColours() throws {
        let scene = Scene(width: 5, height: 3, background: RGBA(red: 250, green: 249, blue: 7), items: [
            .rect(Rect(x: 2, y: 1, width: 3, height: 2), fill: RGBA(red: 1, green: 128, blue: 255)),
        ])
        let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 2)))
        XCTAssertEqual([image.width, image.height, image.channels], [10, 6, 3])
        XCTAssertTrue(image.rgb(0, 0) == (250, 249, 7), "\(image.rgb(0, 0))")
        XCTAssertTrue(image.rgb(3, 1) == (250, 249, 7), "\(image.rgb(3, 1))")
        XCTAssertTrue(image.rgb(4, 2) == (1, 128, 255), "\(image.rgb(4, 2))")
        XCTAssertTrue(image.rgb(9, 5) == (1, 128, 255), "\(image.rgb(9, 5))")
    }

    func testATranslucentPictureIsRGBAWithItsColoursUnpremultiplied() throws {
        let scene = Scene(width: 4, height: 2, background: RGBA(red: 200, green: 100, blue: 50, alpha: 128), items: [])
        let image = try PNGImage(try XCTUnwrap(CairoCanvas.png(scene, scale: 1)))
        XCTAssertEqual(image.channels, 4)
        let at = (0 * image.width + 3) * 4
        let pixel = Array(image.pixels[at..<(at + 4)])
        XCTAssertEqual(pixel[3], 128)
        // Cairo keeps 8-bit premultiplied channels: un-premultiplied, each is within 1 of the colour.
        for (channel, expected) in zip(pixel[0..<3], [200, 100, 50]) { XCTAssertLessThanOrEqual(abs(Int(channel) - expected), 1, "\(pixel)") }
    }
}
