"""Packaging beyond what pyproject.toml can say: the top-level `pipelines/` folder of the repository ships
inside the package as `simlib/pipelines/` (simlib/core/resources.py finds either), every game's folder
included without being listed here."""

from setuptools import find_namespace_packages, find_packages, setup

PIPELINES = ["simlib.pipelines"] + [f"simlib.pipelines.{p}" for p in find_namespace_packages(where="pipelines")]

setup(packages=find_packages(include=["simlib*"]) + PIPELINES, package_dir={"simlib.pipelines": "pipelines"})
