#!/usr/bin/env python3
"""Writes src/openapi.ts, the TypeScript client's types and one method per operation, from
Docs/openapi.yaml (the service's contract), so that the client cannot drift from it:
Scripts/checks/70-typescript-client.sh regenerates the file and fails when the committed one
differs.

    python3 Clients/typescript/generate.py            # rewrite src/openapi.ts
    python3 Clients/typescript/generate.py --check    # exit 1 if src/openapi.ts is stale

Every schema of `components.schemas` becomes a type of the same name (objects, arrays, enums,
`const`, `oneOf`/`anyOf` as unions, `allOf` as intersections; constraints such as `minimum` or
`pattern` stay in the contract and the server). Every operation but the CORS preflights becomes
a method of `ScrollStackOperations` taking `{path, query, headers, body}` as the contract
declares them and answering the success response's type (JSON parsed; SVG, HTML and text as
strings; PNG as bytes). Linear in the size of the contract.
"""
import json
import os
import re
import sys

import yaml

HERE = os.path.dirname(os.path.abspath(__file__))
SPEC = os.path.join(HERE, "..", "..", "Docs", "openapi.yaml")
OUT = os.path.join(HERE, "src", "openapi.ts")
IDENT = re.compile(r"^[A-Za-z_$][A-Za-z0-9_$]*$")


def load():
    with open(SPEC) as f:
        return yaml.safe_load(f)


def resolve(spec, node):
    """Follows `$ref` chains inside the document."""
    while isinstance(node, dict) and "$ref" in node:
        target = spec
        for part in node["$ref"].lstrip("#/").split("/"):
            target = target[part]
        node = target
    return node


def key(name):
    return name if IDENT.match(name) else json.dumps(name)


def comment(text, indent):
    if not text:
        return ""
    lines = " ".join(str(text).split())
    return f"{indent}/** {lines.replace('*/', '* /')} */\n"


def ts_type(schema, indent=""):
    """The TypeScript type of a JSON Schema (the subset the contract uses)."""
    if schema is None or schema is True or schema == {}:
        return "unknown"
    if "$ref" in schema:
        ref = schema["$ref"]
        if ref.startswith("#/components/schemas/"):
            return ref.rsplit("/", 1)[1]
        raise SystemExit(f"unsupported $ref {ref}")
    if "const" in schema:
        return json.dumps(schema["const"])
    if "enum" in schema:
        return " | ".join(json.dumps(v) for v in schema["enum"])
    for combinator, joiner in (("oneOf", " | "), ("anyOf", " | ")):
        if combinator in schema:
            parts = [ts_type(s, indent) for s in schema[combinator]]
            base = {k: v for k, v in schema.items() if k not in (combinator, "description")}
            union = "(" + joiner.join(f"({p})" for p in parts) + ")"
            if base.get("type") or base.get("properties"):
                return f"({ts_type(base, indent)}) & {union}"
            return union
    if "allOf" in schema:
        parts = [ts_type(s, indent) for s in schema["allOf"]]
        rest = {k: v for k, v in schema.items() if k != "allOf"}
        if rest.get("properties"):
            parts.append(ts_type(rest, indent))
        return " & ".join(f"({p})" for p in parts)
    kind = schema.get("type")
    if kind is None and "properties" not in schema and schema.get("required"):
        # A part of an `allOf` that only makes members required: intersected with the part
        # that declares them, `unknown` takes the declared type and drops the `?`.
        return "{ " + " ".join(f"{key(n)}: unknown;" for n in schema["required"]) + " }"
    if isinstance(kind, list):
        return " | ".join(ts_type({**schema, "type": k}, indent) for k in kind)
    if kind == "array":
        return f"Array<{ts_type(schema.get('items'), indent)}>"
    if kind == "object" or "properties" in schema:
        props = schema.get("properties") or {}
        required = set(schema.get("required") or [])
        extra = schema.get("additionalProperties")
        if not props:
            if isinstance(extra, dict):
                return f"{{ [key: string]: {ts_type(extra, indent)} }}"
            return "{ [key: string]: unknown }" if extra is not False else "Record<string, never>"
        inner = indent + "  "
        lines = ["{"]
        for name, sub in props.items():
            optional = "" if name in required else "?"
            doc = comment(sub.get("description") if isinstance(sub, dict) else None, inner)
            lines.append(f"{doc}{inner}{key(name)}{optional}: {ts_type(sub, inner)};")
        lines.append(indent + "}")
        return "\n".join(lines)
    return {"string": "string", "integer": "number", "number": "number", "boolean": "boolean",
            "null": "null"}.get(kind, "unknown")


def content_type(content):
    """The TS type and kind of a request or response body with these media types."""
    if not content:
        return "void", "none"
    if "application/json" in content:
        return ts_type(content["application/json"].get("schema")), "json"
    if "image/png" in content or "application/octet-stream" in content:
        return "Uint8Array", "bytes"
    if "text/event-stream" in content:
        return "string", "text"
    return "string", "text"


def operations(spec):
    found = []
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method, op in item.items():
            if method not in ("get", "post", "put", "patch", "delete") or "operationId" not in op:
                continue
            params = [resolve(spec, p) for p in shared + op.get("parameters", [])]
            body = resolve(spec, op.get("requestBody")) if op.get("requestBody") else None
            successes = []
            for code, answer in op["responses"].items():
                if str(code).startswith("2"):
                    successes.append(resolve(spec, answer))
            found.append((op["operationId"], method.upper(), path, op.get("summary"), params, body, successes))
    return found


def render(spec):
    out = ["// Generated from Docs/openapi.yaml by Clients/typescript/generate.py: do not edit.",
           "// Regenerate with `python3 Clients/typescript/generate.py` after changing the contract.",
           "/* eslint-disable */", ""]
    for name, schema in spec["components"]["schemas"].items():
        out.append(comment(schema.get("description"), "").rstrip("\n"))
        out.append(f"export type {name} = {ts_type(schema)};")
        out.append("")
    table = []
    methods = []
    arg_types = []
    for op_id, method, path, summary, params, body, successes in operations(spec):
        groups = {"path": [], "query": [], "header": []}
        for p in params:
            groups[p["in"]].append(p)
        fields = []
        for where, label in (("path", "path"), ("query", "query"), ("header", "headers")):
            members = groups[where]
            if not members:
                continue
            needed = any(p.get("required") for p in members)
            inner = "; ".join(f"{key(p['name'])}{'' if p.get('required') else '?'}: {ts_type(p.get('schema'), '    ')}"
                              for p in members)
            fields.append(f"  {label}{'' if needed else '?'}: {{ {inner} }};")
        body_kind = "none"
        if body:
            body_type, body_kind = content_type(body.get("content"))
            fields.append(f"  body{'' if body.get('required') else '?'}: {body_type};")
        answer_types = []
        kinds = set()
        for answer in successes:
            t, kind = content_type(answer.get("content"))
            if t not in answer_types:
                answer_types.append(t)
            kinds.add(kind)
        answer = " | ".join(f"({t})" for t in answer_types) or "void"
        kind = "json" if "json" in kinds else ("bytes" if "bytes" in kinds else ("text" if "text" in kinds else "none"))
        cap = op_id[0].upper() + op_id[1:]
        arg_types.append(f"export interface {cap}Args {{\n" + "\n".join(fields) + ("\n" if fields else "") + "}")
        arg_types.append(f"export type {cap}Answer = {answer};")
        required = bool(groups["path"]) or any(p.get("required") for p in params) or bool(body and body.get("required"))
        table.append(f"  {op_id}: {{ method: {json.dumps(method)}, path: {json.dumps(path)}, "
                     f"query: {json.dumps([p['name'] for p in groups['query']])}, "
                     f"arrays: {json.dumps([p['name'] for p in groups['query'] if (p.get('schema') or {}).get('type') == 'array'])}, "
                     f"headers: {json.dumps([p['name'] for p in groups['header']])}, "
                     f"body: {json.dumps(body_kind)}, answer: {json.dumps(kind)} }},")
        doc = comment(f"{method} {path}" + (f": {summary}" if summary else ""), "  ")
        methods.append(f"{doc}  {op_id}(args{'' if required else '?'}: {cap}Args): Promise<Reply<{cap}Answer>> {{\n"
                       f"    return this.call(\"{op_id}\", args ?? {{}}) as Promise<Reply<{cap}Answer>>;\n  }}")
    out.append("/** How each operation is sent: method, path template, query and header parameters, body and answer kinds. */")
    out.append("export const operations = {")
    out.extend(table)
    out.append("} as const;")
    out.append("")
    out.append("export type OperationID = keyof typeof operations;")
    out.append("")
    out.extend(a + "\n" for a in arg_types)
    out.append("/** A success answer: its status, headers (ETag for `If-Match`), and body. */")
    out.append("export interface Reply<T> {\n  status: number;\n  etag: string | null;\n  headers: Headers;\n  body: T;\n}")
    out.append("")
    out.append("/** Every operation of the contract as a typed method; `call` sends it (see client.ts). */")
    out.append("export abstract class ScrollStackOperations {")
    out.append("  protected abstract call(id: OperationID, args: {\n"
               "    path?: { [name: string]: string | number };\n"
               "    query?: { [name: string]: unknown };\n"
               "    headers?: { [name: string]: string | undefined };\n"
               "    body?: unknown;\n"
               "  }): Promise<Reply<unknown>>;")
    out.append("")
    out.append("\n\n".join(methods))
    out.append("}")
    return "\n".join(line for line in out if line is not None) + "\n"


def main():
    text = render(load())
    if "--check" in sys.argv:
        with open(OUT) as f:
            if f.read() != text:
                print(f"{OUT} is stale: run python3 Clients/typescript/generate.py")
                sys.exit(1)
        print("src/openapi.ts matches Docs/openapi.yaml")
        return
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w") as f:
        f.write(text)
    print(f"wrote {OUT} ({len(text)} bytes)")


if __name__ == "__main__":
    main()
