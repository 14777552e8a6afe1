/// The HTML answer of `GET /` for a browser: the server's name and version and its links
/// (`StackService.indexLinks`). No script, nothing fetched; the edge adds `nosniff` and the
/// pages' Content Security Policy, as to every page.
enum IndexPage {
    static let name = "ScrollStack Server"

    static let html: [UInt8] = {
        let descriptions = [
            "docs": "the API contract (OpenAPI 3.1, YAML), with every endpoint, field and error described",
            "contract": "the same contract as JSON, for tools",
            "viewer": "the stacks, drawn in the browser",
            "health": "whether the server is up",
        ]
        let items = StackService.indexLinks.map { link in
            "<li><a href=\"\(link.path)\">\(link.path)</a> — \(descriptions[link.relation] ?? link.relation)</li>"
        }.joined(separator: "\n")
        let page = """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(name)</title>
        <style>
          body { margin: 2em auto; max-width: 40em; padding: 0 1em; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1c1c1e; }
          code, a { font-family: ui-monospace, monospace; }
        </style>
        </head>
        <body>
        <h1>\(name) <small>\(OpenAPIDocument.version)</small></h1>
        <p>Scroll stacks of rows and their computed layout, over HTTP. The API lives under <code>/v1</code>.</p>
        <ul>
        \(items)
        </ul>
        </body>
        </html>

        """
        return Array(page.utf8)
    }()
}
