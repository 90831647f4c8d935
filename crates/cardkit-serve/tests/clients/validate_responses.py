"""Validates responses against an OpenAPI document with openapi-core.

Usage: python validate_responses.py OPENAPI.json EXCHANGES.json

EXCHANGES.json is a list of {"method", "path", "query", "status",
"content_type", "body"}; JSON Lines bodies are validated line by line. Prints
one JSON line per exchange: {"ok": true} or {"ok": false, "error": "..."}.
"""

import json
import sys

from openapi_core import Config, OpenAPI
from openapi_core.testing import MockRequest, MockResponse


def main():
    document, exchanges = sys.argv[1], sys.argv[2]
    config = Config(
        extra_media_type_deserializers={
            # One line of JSON Lines: the document's schema is a line's.
            "application/x-ndjson": json.loads,
            "application/sarif+json": json.loads,
            "application/problem+json": json.loads,
        }
    )
    api = OpenAPI.from_file_path(document, config=config)
    with open(exchanges, encoding="utf-8") as file:
        exchanges = json.load(file)
    for exchange in exchanges:
        request = MockRequest(
            "http://localhost",
            exchange["method"],
            exchange["path"],
            args=exchange.get("query", {}),
        )
        if exchange["content_type"] == "application/x-ndjson":
            bodies = exchange["body"].splitlines()
        else:
            bodies = [exchange["body"]]
        error = None
        for body in bodies:
            response = MockResponse(
                data=body.encode("utf-8"),
                status_code=exchange["status"],
                content_type=exchange["content_type"],
            )
            try:
                api.validate_response(request, response)
            except Exception as failure:  # every kind of validation error
                causes = []
                cause = failure
                while cause is not None:
                    causes.append(f"{type(cause).__name__}: {cause}")
                    cause = cause.__cause__ or getattr(cause, "schema_errors", [None])[0]
                    if len(causes) > 4:
                        break
                error = " <- ".join(causes)
                break
        print(json.dumps({"ok": error is None, "error": error}))


main()
