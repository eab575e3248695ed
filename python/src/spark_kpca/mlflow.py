"""An MLflow flavour of spark-kpca's own that serves without a JVM: a fitted kernel PCA model, or a PipelineModel
of the stages numpy can score, logged as a ``python_function`` model scored by numpy and scipy.

::

    import spark_kpca.mlflow
    with mlflow.start_run():
        info = spark_kpca.mlflow.log_model(model, "kpca")      # a NystromKernelPCAModel or a PipelineModel
    scores = mlflow.pyfunc.load_model(info.model_uri).predict(X)  # no Spark: numpy's n×k scores

What it takes: a :class:`~spark_kpca.ml.NystromKernelPCAModel`, :class:`~spark_kpca.ml.KernelPCAModel` or
:class:`~spark_kpca.ml.RandomFeatureKernelPCAModel`, or a ``PipelineModel`` whose last stage is one of them and
whose stages before it are ``VectorAssembler``, ``StandardScalerModel`` and ``Normalizer`` (any other stage is
refused: log that pipeline with ``mlflow.spark.log_model``). The model's arrays come from its export bundle
(``model.export``), the stages' fitted state from PySpark, at log time; the logged model holds them as one
``.npz`` file and the scorer module (``code/spark_kpca_pyfunc.py``, numpy and scipy only), so that it loads
with only numpy and scipy installed (its ``requirements.txt``: numpy and scipy at this process's versions, and
MLflow). The scores are the model's ``outputCol`` only: no residual, reconstruction or pre-image.

MLflow itself is imported by these functions, not by ``import spark_kpca``: the package works without it.
"""

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np

from spark_kpca import _pyfunc

FLAVOR_NAME = "spark_kpca"
#: The scorer module's name inside a logged model (``code/``) and its MLflow ``loader_module``.
LOADER_MODULE = "spark_kpca_pyfunc"
_DATA = "data"
_CODE = "code"
_KPCA_MODELS = ("NystromKernelPCAModel", "KernelPCAModel", "RandomFeatureKernelPCAModel")
_BEFORE = ("VectorAssembler", "StandardScalerModel", "Normalizer")

__all__ = ["save_model", "log_model", "load_model", "get_default_pip_requirements", "FLAVOR_NAME"]


def get_default_pip_requirements() -> List[str]:
    """numpy and scipy at the versions of this process: all a logged model needs besides MLflow."""
    import scipy

    return [f"numpy=={np.__version__}", f"scipy=={scipy.__version__}"]


def _stages(model: Any) -> List[Any]:
    """The model's stages in order: nested PipelineModels flattened, a single model as one stage."""
    stages = getattr(model, "stages", None)
    if stages is None:
        return [model]
    flat: List[Any] = []
    for stage in stages:
        flat.extend(_stages(stage))
    return flat


def _refuse(message: str) -> None:
    raise ValueError(f"spark_kpca.mlflow: {message}")


def _collect(model: Any, workdir: str) -> Tuple[Dict[str, Any], Dict[str, np.ndarray]]:
    """The settings and arrays of ``model`` (read through PySpark and the model's export bundle)."""
    stages = _stages(model)
    if not stages:
        _refuse("the PipelineModel has no stages")
    kpca = stages[-1]
    if type(kpca).__name__ not in _KPCA_MODELS:
        _refuse(
            f"the last stage is a {type(kpca).__name__}; the pyfunc flavour scores pipelines that end with a kernel "
            f"PCA model ({', '.join(_KPCA_MODELS)}): log this pipeline with mlflow.spark.log_model"
        )
    meta: Dict[str, Any] = {"format": _pyfunc.FORMAT, "stages": [], "inputCols": None}
    arrays: Dict[str, np.ndarray] = {}
    column: Optional[str] = None  # the column the next stage must read
    for i, stage in enumerate(stages[:-1]):
        name = type(stage).__name__
        if name not in _BEFORE:
            _refuse(
                f"stage {i} ({name}, uid {getattr(stage, 'uid', '?')}) is not scored without Spark (only "
                f"{', '.join(_BEFORE)} before the kernel PCA stage): log this pipeline with mlflow.spark.log_model"
            )
        if name == "VectorAssembler":
            if i != 0:
                _refuse(f"stage {i} (VectorAssembler) must be the first stage")
            cols = list(stage.getInputCols())
            meta["inputCols"] = cols
            meta["stages"].append({"type": "VectorAssembler", "inputCols": cols})
        else:
            source = stage.getInputCol()
            if column is not None and source != column:
                _refuse(f"stage {i} ({name}) reads '{source}', not the previous stage's output '{column}'")
            if i == 0:
                meta["inputCol"] = source
            if name == "StandardScalerModel":
                std = np.asarray(stage.std.toArray(), dtype=np.float64)
                arrays[f"stage{i}_mean"] = np.asarray(stage.mean.toArray(), dtype=np.float64)
                with np.errstate(divide="ignore"):
                    arrays[f"stage{i}_scale"] = np.where(std == 0, 0.0, 1.0 / std)
                meta["stages"].append(
                    {"type": "StandardScaler", "withMean": bool(stage.getWithMean()), "withStd": bool(stage.getWithStd())}
                )
            else:
                meta["stages"].append({"type": "Normalizer", "p": float(stage.getP())})
        column = stage.getOutputCol()
    source = kpca.getOrDefault("inputCol")
    if column is not None and source != column:
        _refuse(f"the kernel PCA stage reads '{source}', not the previous stage's output '{column}'")
    if column is None:
        meta["inputCol"] = source
    meta["outputCol"] = kpca.getOrDefault("outputCol")

    bundle = os.path.join(workdir, "bundle")
    kpca.export(Path(bundle).as_uri())
    with open(os.path.join(bundle, "model.json"), encoding="utf-8") as f:
        exported = json.load(f)
    kernel = exported["kernel"]
    if kernel not in _pyfunc.KERNELS:
        _refuse(f"kernel '{kernel}' is not one the numpy scorer computes ({', '.join(_pyfunc.KERNELS)})")
    for key in ("featureMap", "kernel", "d", "k", "centered", "n"):
        meta[key] = exported[key]
    for key in ("gamma", "degree", "coef0"):  # only the parameters the kernel family uses are exported
        if key in exported:
            meta[key] = exported[key]
    meta["m" if exported["featureMap"] != "rff" else "D"] = exported.get("m", exported.get("D"))
    files = exported["files"]

    def read(name: str, dtype: Any = np.float64, ndmin: int = 2) -> np.ndarray:
        return np.loadtxt(os.path.join(bundle, name), delimiter=",", dtype=dtype, ndmin=ndmin)

    d, k = int(exported["d"]), int(exported["k"])
    arrays["projector"] = read(files["projector"]).reshape(-1, k)
    arrays["offset"] = read(files["offset"], ndmin=1).reshape(k)
    if exported["featureMap"] == "rff":
        arrays["omega"] = read(files["omega"]).reshape(-1, d)
        arrays["phase"] = read(files["phase"], ndmin=1).ravel()
    elif "landmarksCsr" in files:
        csr = files["landmarksCsr"]
        arrays["landmarks_indptr"] = read(csr["indptr"], np.int64, 1)
        arrays["landmarks_indices"] = read(csr["indices"], np.int64, 1)
        arrays["landmarks_data"] = read(csr["data"], ndmin=1).ravel()
    else:
        arrays["landmarks"] = read(files["landmarks"]).reshape(-1, d)
    dims = [len(stage_mean) for name, stage_mean in arrays.items() if name.endswith("_mean")]
    if meta["inputCols"] is not None and len(meta["inputCols"]) != d:
        _refuse(
            f"the VectorAssembler assembles {len(meta['inputCols'])} columns into {d} features: only numeric "
            "(scalar) input columns are supported; assemble vector columns in Spark first"
        )
    if any(dim != d for dim in dims):
        _refuse(f"a StandardScalerModel has {dims} features; the kernel PCA model {d}")
    meta["inputDim"] = d
    return meta, arrays


def _signature(meta: Dict[str, Any]) -> Any:
    from mlflow.models import ModelSignature
    from mlflow.types.schema import Array, ColSpec, DataType, Schema, TensorSpec

    if meta["inputCols"]:
        inputs = Schema([ColSpec(DataType.double, name) for name in meta["inputCols"]])
    else:
        inputs = Schema([TensorSpec(np.dtype(np.float64), (-1, int(meta["d"])))])
    outputs = Schema([ColSpec(Array(DataType.double), meta["outputCol"])])
    return ModelSignature(inputs=inputs, outputs=outputs)


def save_model(
    model: Any,
    path: str,
    mlflow_model: Any = None,
    signature: Any = None,
    input_example: Any = None,
    pip_requirements: Optional[List[str]] = None,
    extra_pip_requirements: Optional[List[str]] = None,
    metadata: Optional[Dict[str, Any]] = None,
) -> None:
    """Writes ``model`` (a kernel PCA model, or a PipelineModel of VectorAssembler / StandardScalerModel /
    Normalizer stages ending with one) as an MLflow model in the new local directory ``path``, with the
    ``python_function`` flavour scored by numpy and scipy.

    ``signature``: by default, the pipeline's numeric input columns (a VectorAssembler first), else an unnamed
    float64 tensor of shape (-1, d); the output is one column of k doubles named after the stage's
    ``outputCol``. ``pip_requirements``: by default numpy and scipy at this process's versions."""
    path = os.path.abspath(path)
    if os.path.exists(path):
        _refuse(f"path '{path}' exists already; choose a new one")
    with tempfile.TemporaryDirectory(prefix="spark-kpca-mlflow-") as workdir:
        meta, arrays = _collect(model, workdir)  # refuses what it cannot score before anything is written
        os.makedirs(os.path.join(path, _DATA))
        try:
            _write(path, meta, arrays, mlflow_model, signature, input_example, pip_requirements,
                   extra_pip_requirements, metadata)
        except BaseException:
            shutil.rmtree(path, ignore_errors=True)  # the directory this call made
            raise


def _write(
    path: str,
    meta: Dict[str, Any],
    arrays: Dict[str, np.ndarray],
    mlflow_model: Any,
    signature: Any,
    input_example: Any,
    pip_requirements: Optional[List[str]],
    extra_pip_requirements: Optional[List[str]],
    metadata: Optional[Dict[str, Any]],
) -> None:
    from mlflow.models import Model
    from mlflow.models.model import MLMODEL_FILE_NAME
    from mlflow.models.utils import _save_example
    from mlflow.pyfunc import add_to_model
    from mlflow.utils.environment import (
        _CONDA_ENV_FILE_NAME,
        _CONSTRAINTS_FILE_NAME,
        _PYTHON_ENV_FILE_NAME,
        _REQUIREMENTS_FILE_NAME,
        _process_pip_requirements,
        _PythonEnv,
    )
    import yaml

    with open(os.path.join(path, _DATA, "spark_kpca.json"), "w", encoding="utf-8") as f:
        json.dump(meta, f, indent=2)
    np.savez(os.path.join(path, _DATA, "arrays.npz"), **arrays)
    os.makedirs(os.path.join(path, _CODE))
    shutil.copyfile(_pyfunc.__file__, os.path.join(path, _CODE, LOADER_MODULE + ".py"))

    if mlflow_model is None:
        mlflow_model = Model()
    if input_example is not None:
        _save_example(mlflow_model, input_example, path)
    mlflow_model.signature = _signature(meta) if signature is None else signature
    if metadata is not None:
        mlflow_model.metadata = metadata
    add_to_model(
        mlflow_model,
        loader_module=LOADER_MODULE,
        data=_DATA,
        code=_CODE,
        conda_env=_CONDA_ENV_FILE_NAME,
        python_env=_PYTHON_ENV_FILE_NAME,
    )
    from spark_kpca import __version__

    mlflow_model.add_flavor(
        FLAVOR_NAME,
        spark_kpca_version=__version__,
        data=_DATA,
        code=_CODE,
        model=meta["featureMap"],
        kernel=meta["kernel"],
        stages=[s["type"] for s in meta["stages"]],
    )
    mlflow_model.save(os.path.join(path, MLMODEL_FILE_NAME))

    conda_env, pip_reqs, constraints = _process_pip_requirements(
        get_default_pip_requirements(), pip_requirements, extra_pip_requirements
    )
    with open(os.path.join(path, _CONDA_ENV_FILE_NAME), "w") as f:
        yaml.safe_dump(conda_env, stream=f, default_flow_style=False)
    if constraints:
        Path(path, _CONSTRAINTS_FILE_NAME).write_text("\n".join(constraints))
    Path(path, _REQUIREMENTS_FILE_NAME).write_text("\n".join(pip_reqs))
    _PythonEnv.current().to_yaml(os.path.join(path, _PYTHON_ENV_FILE_NAME))


def log_model(
    model: Any,
    artifact_path: Optional[str] = None,
    *,
    name: Optional[str] = None,
    registered_model_name: Optional[str] = None,
    signature: Any = None,
    input_example: Any = None,
    pip_requirements: Optional[List[str]] = None,
    extra_pip_requirements: Optional[List[str]] = None,
    metadata: Optional[Dict[str, Any]] = None,
    **kwargs: Any,
) -> Any:
    """Logs ``model`` to the active run (one is started when none is) as :func:`save_model` writes it; returns
    MLflow's ``ModelInfo`` (``info.model_uri`` loads it with ``mlflow.pyfunc.load_model``). ``artifact_path``
    (MLflow 2) or ``name`` (MLflow 3) names it; other keyword arguments go to MLflow's ``Model.log``."""
    import sys

    from mlflow.models import Model

    if name is not None:
        kwargs["name"] = name
    return Model.log(
        artifact_path=artifact_path,
        flavor=sys.modules[__name__],
        model=model,
        registered_model_name=registered_model_name,
        signature=signature,
        input_example=input_example,
        pip_requirements=pip_requirements,
        extra_pip_requirements=extra_pip_requirements,
        metadata=metadata,
        **kwargs,
    )


def load_model(model_uri: str) -> Any:
    """The scorer of a logged model (``predict(rows)`` gives the n×k scores), without MLflow's signature check:
    it takes every input form ``predict`` does, also Spark ML vectors and float32 arrays."""
    import mlflow.pyfunc

    return mlflow.pyfunc.load_model(model_uri).get_raw_model()
