"""A model of the photo reader (``models/*.onnx``), loaded on first use, once per process."""

from __future__ import annotations

import threading
from pathlib import Path


class Model:
    """ONNX Runtime session of the model at ``path``, made on the first ``session()`` call:
    one thread per photo (the server reads photos of several tables at once), and no memory
    arena (it keeps the largest run's working memory for good)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._session = None
        self._lock = threading.Lock()

    def session(self):
        if self._session is None:
            with self._lock:
                if self._session is None:
                    import onnxruntime as ort

                    opts = ort.SessionOptions()
                    opts.intra_op_num_threads = 1
                    opts.inter_op_num_threads = 1
                    opts.log_severity_level = 3
                    opts.enable_cpu_mem_arena = False
                    self._session = ort.InferenceSession(
                        str(self.path), sess_options=opts, providers=["CPUExecutionProvider"]
                    )
        return self._session
