"""Loading the MiniLM torch model in a Jupyter kernel (ipywidgets absent, as in the dev
install) writes nothing to stderr: transformers' ``tqdm.auto`` import warns "IProgress not
found" there unless graphmem's import keeps that one warning out (graphmem/embed/base.py)."""

from __future__ import annotations

import nbformat
import pytest
from nbclient import NotebookClient

pytestmark = pytest.mark.slow


def test_minilm_loads_in_a_kernel_without_a_warning() -> None:
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(
            "import sys\n"
            "from graphmem.config import Settings\n"
            "from graphmem.embed.base import MiniLMEmbedder\n"
            "MiniLMEmbedder(Settings(embedder='minilm'))._load()\n"
            # The import that warns did happen: the test sees the warning if it is not kept out.
            "print('tqdm.auto' in sys.modules)"
        ),
        nbformat.v4.new_code_cell(
            "import warnings\nwarnings.warn('still shown', UserWarning)"  # filters are back
        ),
    ]
    NotebookClient(notebook, timeout=600, kernel_name="python3").execute()
    loaded, after = ([o for o in cell.outputs] for cell in notebook.cells)
    assert [(o["name"], o["text"]) for o in loaded] == [("stdout", "True\n")]
    assert [o["name"] for o in after] == ["stderr"] and "still shown" in after[0]["text"]
