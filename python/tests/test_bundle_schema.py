"""tts_parity/schema/bundle.schema.json (generated from the TypeScript zod schema of bundle.json; a TS test
fails when it drifts) accepts the three complete bundle.json examples of docs/bundle-format.md with
jsonschema 4.10, and refuses a field of the wrong kind, so a Python exporter can check what it writes."""

import copy
import json
import re

import jsonschema
import pytest

from conftest import PYTHON_DIR, REPO_ROOT

SCHEMA = json.loads((PYTHON_DIR / "tts_parity" / "schema" / "bundle.schema.json").read_text(encoding="utf-8"))
PAGE = (REPO_ROOT / "docs" / "bundle-format.md").read_text(encoding="utf-8")


def example(name):
    found = re.search(rf"<!-- example: {name} -->\n```json\n(.*?)\n```", PAGE, re.S)
    assert found, name
    return json.loads(found.group(1))


@pytest.mark.parametrize("name", ["bundle-json-demo", "bundle-json-qwen3", "bundle-json-dia"])
def test_the_documented_bundle_json_is_valid(name):
    jsonschema.Draft202012Validator(SCHEMA).validate(example(name))


def test_a_wrong_field_is_refused_naming_it():
    doc = copy.deepcopy(example("bundle-json-qwen3"))
    doc["talker"]["specialIds"]["suppress"] = "none"
    with pytest.raises(jsonschema.ValidationError) as caught:
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)
    assert list(caught.value.absolute_path) == ["talker", "specialIds", "suppress"]
    doc = copy.deepcopy(example("bundle-json-demo"))
    doc["embed"]["tabel"] = {}
    with pytest.raises(jsonschema.ValidationError, match="tabel"):
        jsonschema.Draft202012Validator(SCHEMA).validate(doc)
