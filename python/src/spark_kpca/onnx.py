"""ONNX export: a fitted kernel PCA model as one ONNX graph, and a Spark ``PipelineModel`` around it.

:meth:`~spark_kpca.ml.NystromKernelPCAModel.to_onnx` writes a model's graph (the JVM writes it, Java's
``ModelExport.writeOnnx``, the same writer as ``bin/spark-kpca export --format onnx``): input ``features``
[N, d] float64, output ``scores`` [N, k], the scores of ``transform`` for dense rows. onnxruntime scores it
without Spark::

    import onnxruntime as ort
    session = ort.InferenceSession("kpca.onnx")
    scores = session.run(["scores"], {"features": X})[0]   # X: float64 [N, d]

:func:`pipeline_to_onnx` turns a ``PipelineModel`` of Spark ML stages that onnxmltools converts
(``VectorAssembler``, ``StandardScaler``, ``Normalizer``, ``LogisticRegression``, ...) around one kernel PCA stage
into one graph, through onnxmltools' ``convert_sparkml`` with a converter for our stages (``pip install
onnxmltools``).
"""

import contextlib
import io
import os
import shutil
import tempfile
from typing import Any, Iterable, Optional

from spark_kpca._java_classes import JAVA_UTILITIES
from spark_kpca._jvm import java_class

#: The Python classes of the models :func:`pipeline_to_onnx` converts (their Java writer has a graph).
_MODEL_CLASSES = ("NystromKernelPCAModel", "RandomFeatureKernelPCAModel", "KernelPCAModel")


def write_model(model: Any, path: str, float32: bool = False) -> None:
    """Writes ``model``'s ONNX graph to the new file ``path`` (any Hadoop file system); raises when it exists.
    ``float32``: a graph in single precision (input, constants and scores float32)."""
    from pyspark import SparkContext

    from spark_kpca.errors import jvm_errors

    if not isinstance(path, str):
        raise TypeError(f"path should be a string, got type {type(path).__name__}")
    sc = SparkContext._active_spark_context
    if sc is None:
        raise RuntimeError("no active SparkContext")
    model._transfer_params_to_java()
    export = java_class(JAVA_UTILITIES["ModelExport"])
    with jvm_errors():
        options = getattr(sc._jvm, JAVA_UTILITIES["ModelExport"] + "$OnnxOptions")(bool(float32))
        export.writeOnnx(model._java_obj, path, sc._jsc.hadoopConfiguration(), options)


def model_to_onnx(model: Any, float32: bool = False) -> Any:
    """``model``'s graph as an ``onnx.ModelProto`` (needs the ``onnx`` package)."""
    import onnx

    directory = tempfile.mkdtemp(prefix="spark-kpca-onnx-")
    try:
        file = os.path.join(directory, "model.onnx")
        write_model(model, "file://" + file, float32)
        return onnx.load(file)
    finally:
        shutil.rmtree(directory, ignore_errors=True)


def _is_kpca_model(stage: Any) -> bool:
    return type(stage).__module__.startswith("spark_kpca.") and type(stage).__name__ in _MODEL_CLASSES


def _operator_name(stage_class: type) -> str:
    return "spark_kpca." + stage_class.__name__


def _register(stage_class: type) -> None:
    """Makes onnxmltools' Spark ML parser know ``stage_class``: its operator name and input/output columns."""
    from onnxmltools.convert.sparkml import ops_input_output, ops_names

    name = _operator_name(stage_class)
    ops_names.sparkml_operator_name_map[stage_class] = name
    ops_input_output.io_name_map[name] = (
        lambda m: [m.getOrDefault("inputCol")],
        lambda m: [m.getOrDefault("outputCol")],
    )


def _convert_kpca(scope: Any, operator: Any, container: Any) -> None:
    """onnxmltools' converter of our stage: the graph the JVM writes, its names prefixed, between two Casts
    (onnxmltools' Spark ML converters pass float32 tensors; the kernel PCA graph runs in float64)."""
    import onnx
    from onnx import TensorProto, helper

    graph = model_to_onnx(operator.raw_operator).graph
    prefix = scope.get_unique_variable_name("kpca")
    features = prefix + "_features"
    scores = prefix + "_scores"
    renamed = {"features": features, "scores": scores}

    def rename(name: str) -> str:
        return renamed.get(name, prefix + "_" + name) if name else name

    container.add_node(
        "Cast", operator.inputs[0].full_name, features, name=prefix + "_cast_in", to=TensorProto.DOUBLE
    )
    for tensor in graph.initializer:
        copy = onnx.TensorProto()
        copy.CopyFrom(tensor)
        copy.name = rename(tensor.name)
        container.initializers.append(copy)
    for node in graph.node:
        copy = onnx.NodeProto()
        copy.CopyFrom(node)
        del copy.input[:]
        del copy.output[:]
        copy.input.extend(rename(n) for n in node.input)
        copy.output.extend(rename(n) for n in node.output)
        copy.name = rename(node.name)
        container.nodes.append(copy)
    container.node_domain_version_pair_sets.add(("", 13))  # the opset of the JVM's graph
    container.nodes.append(
        helper.make_node(
            "Cast", [scores], operator.output_full_names, name=prefix + "_cast_out", to=TensorProto.FLOAT
        )
    )


def _shape_kpca(operator: Any) -> None:
    from onnxmltools.convert.common.data_types import FloatTensorType

    n = operator.inputs[0].type.shape[0]
    operator.outputs[0].type = FloatTensorType([n, int(operator.raw_operator.numComponents)])


def pipeline_to_onnx(
    pipeline_model: Any,
    input_cols: Iterable[str],
    name: str = "spark_kpca_pipeline",
    spark: Optional[Any] = None,
    target_opset: Optional[int] = None,
) -> Any:
    """A fitted ``PipelineModel`` as one ``onnx.ModelProto``, through onnxmltools' ``convert_sparkml`` with a
    converter for our kernel PCA stages.

    The graph's inputs are the columns ``input_cols`` (float32 [N, 1] each, the inputs of the pipeline's
    ``VectorAssembler``), its outputs the stages' output columns (for a ``LogisticRegressionModel``: its
    prediction and probability columns). The stages before and after ours are onnxmltools' (its Spark ML
    converters work in float32: Scaler, LinearClassifier); our stage runs in float64 between two Casts, so
    the probabilities equal Spark's to float32 rounding (about 1e-7; the tests check 1e-5).

    :raises ValueError: naming a stage that onnxmltools cannot convert
    """
    from onnxmltools import convert_sparkml
    from onnxmltools.convert.common.data_types import FloatTensorType

    functions = {}
    shapes = {}
    for stage in getattr(pipeline_model, "stages", [pipeline_model]):
        if _is_kpca_model(stage):
            _register(type(stage))
            functions[_operator_name(type(stage))] = _convert_kpca
            shapes[_operator_name(type(stage))] = _shape_kpca
    # onnxmltools' LogisticRegression converter pprints its attributes to stdout: kept out of the caller's output.
    with contextlib.redirect_stdout(io.StringIO()):
        return convert_sparkml(
            pipeline_model,
            name,
            [(column, FloatTensorType([None, 1])) for column in input_cols],
            target_opset=target_opset,
            custom_conversion_functions=functions,
            custom_shape_calculators=shapes,
            spark_session=spark,
        )
