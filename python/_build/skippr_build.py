"""A PEP 517 build backend in the standard library only, so that ``pip install ./python`` works
offline with any pip and any Python 3.8+, with no setuptools or wheel to fetch or have installed.
It builds a pure-Python wheel of the ``skippr`` package: its modules, and the metadata pip needs.
"""

import base64
import hashlib
import os
import zipfile

NAME = "skippr"
VERSION = "0.1.0"
SUMMARY = "Skippr from Python: edit skippr.yml and run pipelines through skipprd"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
DIST_INFO = "%s-%s.dist-info" % (NAME, VERSION)


def get_requires_for_build_wheel(config_settings=None):
    return []


def get_requires_for_build_sdist(config_settings=None):
    return []


def prepare_metadata_for_build_wheel(metadata_directory, config_settings=None):
    target = os.path.join(metadata_directory, DIST_INFO)
    os.makedirs(target, exist_ok=True)
    for name, data in _metadata().items():
        with open(os.path.join(target, name), "wb") as f:
            f.write(data)
    return DIST_INFO


def build_wheel(wheel_directory, config_settings=None, metadata_directory=None):
    wheel = "%s-%s-py3-none-any.whl" % (NAME, VERSION)
    records = []
    with zipfile.ZipFile(os.path.join(wheel_directory, wheel), "w", zipfile.ZIP_DEFLATED) as z:
        for path in _modules():
            with open(os.path.join(ROOT, path), "rb") as f:
                records.append(_add(z, path.replace(os.sep, "/"), f.read()))
        for name, data in _metadata().items():
            records.append(_add(z, DIST_INFO + "/" + name, data))
        record = DIST_INFO + "/RECORD"
        lines = records + ["%s,," % record]
        z.writestr(record, ("\n".join(lines) + "\n").encode("utf-8"))
    return wheel


def build_sdist(sdist_directory, config_settings=None):
    import tarfile

    base = "%s-%s" % (NAME, VERSION)
    sdist = base + ".tar.gz"
    with tarfile.open(os.path.join(sdist_directory, sdist), "w:gz") as t:
        for path in _modules() + ["pyproject.toml", "README.md", "_build/skippr_build.py"]:
            t.add(os.path.join(ROOT, path), arcname=base + "/" + path)
        info = tarfile.TarInfo(base + "/PKG-INFO")
        data = _metadata()["METADATA"]
        info.size = len(data)
        import io

        t.addfile(info, io.BytesIO(data))
    return sdist


def _modules():
    found = []
    for folder, _, files in os.walk(os.path.join(ROOT, NAME)):
        for name in sorted(files):
            if name.endswith(".py"):
                found.append(os.path.relpath(os.path.join(folder, name), ROOT))
    return sorted(found)


def _metadata():
    with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    metadata = (
        "Metadata-Version: 2.1\n"
        "Name: %s\nVersion: %s\nSummary: %s\nLicense: Apache-2.0\n"
        "Requires-Python: >=3.8\nDescription-Content-Type: text/markdown\n\n%s"
        % (NAME, VERSION, SUMMARY, readme)
    )
    wheel = (
        "Wheel-Version: 1.0\nGenerator: skippr_build\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n"
    )
    return {"METADATA": metadata.encode("utf-8"), "WHEEL": wheel.encode("utf-8")}


def _add(z, name, data):
    z.writestr(name, data)
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (name, digest, len(data))
