package io.github.sparkkpca.persistence;

import java.io.ByteArrayOutputStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * An ONNX graph of one input and one output, built node by node and written as the bytes of an ONNX
 * {@code ModelProto}: the few messages an export needs (ModelProto, OperatorSetIdProto, GraphProto,
 * NodeProto, AttributeProto of type INT, TensorProto with {@code raw_data}, ValueInfoProto,
 * TypeProto.Tensor, TensorShapeProto) in protobuf's wire format, with the field numbers of {@code
 * onnx/onnx.proto} of ONNX 1.23 (IR version 8, {@value #OPSET}).
 *
 * <p>Why encoded here: the core jar brings nothing onto a user's class path (its published POM has
 * only Spark's provided dependencies, and the consumer test checks it), Spark shades its own
 * protobuf-java (so {@code com.google.protobuf} is not on a Spark class path), and Maven Central
 * has no maintained artifact of the generated ONNX classes alone. The wire format needs three
 * things: varints, length-delimited fields and little-endian raw tensor bytes. The Python tests
 * parse every graph with {@code onnx.load} and {@code onnx.checker.check_model} and score it with
 * onnxruntime.
 */
final class OnnxGraph {

  /** The default-domain operator set the graphs use. */
  static final int OPSET = 13;

  /**
   * The IR version of opset 13 (ONNX 1.8, {@code IR_VERSION_2020_5_8}): read by every onnxruntime
   * since 1.6, and by onnxmltools' converters, whose newest opset is 15.
   */
  private static final int IR_VERSION = 7;

  private static final int INT64 = 7;

  /**
   * TensorProto.DataType FLOAT (1) or DOUBLE (11): the element type of input, output, constants.
   */
  private final int elementType;

  private final List<byte[]> nodes = new ArrayList<>();
  private final List<byte[]> initializers = new ArrayList<>();
  private int counter;

  /** A graph in double ({@code float32} false) or float precision. */
  OnnxGraph(boolean float32) {
    this.elementType = float32 ? 1 : 11;
  }

  /** A constant of the graph's element type: {@code values} row-major with shape {@code dims}. */
  String constant(String name, double[] values, long... dims) {
    ByteBuffer raw =
        ByteBuffer.allocate(values.length * (elementType == 1 ? 4 : 8))
            .order(ByteOrder.LITTLE_ENDIAN);
    for (double v : values) {
      if (elementType == 1) {
        raw.putFloat((float) v);
      } else {
        raw.putDouble(v);
      }
    }
    initializers.add(tensor(name, elementType, raw.array(), dims));
    return name;
  }

  /** A scalar constant of the graph's element type. */
  String scalar(String name, double value) {
    return constant(name, new double[] {value});
  }

  /** An int64 vector constant (axes). */
  String int64s(String name, long... values) {
    ByteBuffer raw = ByteBuffer.allocate(values.length * 8).order(ByteOrder.LITTLE_ENDIAN);
    for (long v : values) {
      raw.putLong(v);
    }
    initializers.add(tensor(name, INT64, raw.array(), values.length));
    return name;
  }

  /** A node of the default domain; returns its output's name (generated from the operator). */
  String node(String opType, String... inputs) {
    return nodeWithKeepDims(opType, -1, inputs);
  }

  /**
   * A node with the INT attribute {@code keepdims} (0 or 1; −1 for none); returns its output's
   * name.
   */
  String nodeWithKeepDims(String opType, int keepDims, String... inputs) {
    String output = opType.toLowerCase(java.util.Locale.ROOT) + "_" + counter++;
    nodeNamed(opType, output, keepDims, inputs);
    return output;
  }

  /** A node whose output has the given name (the graph's output). */
  void nodeNamed(String opType, String output, int keepDims, String... inputs) {
    Proto node = new Proto();
    for (String input : inputs) {
      node.string(1, input);
    }
    node.string(2, output);
    node.string(3, output);
    node.string(4, opType);
    if (keepDims >= 0) {
      Proto attribute = new Proto();
      attribute.string(1, "keepdims");
      attribute.varint(3, keepDims);
      attribute.varint(20, 2); // AttributeType INT
      node.message(5, attribute.bytes());
    }
    nodes.add(node.bytes());
  }

  /**
   * The ModelProto: input {@code input} [N, inputDim] and output {@code output} [N, outputDim] of
   * the graph's element type, N a symbolic batch dimension.
   */
  byte[] model(
      String graphName,
      String input,
      int inputDim,
      String output,
      int outputDim,
      String producerVersion,
      String docString) {
    Proto graph = new Proto();
    for (byte[] node : nodes) {
      graph.message(1, node);
    }
    graph.string(2, graphName);
    for (byte[] initializer : initializers) {
      graph.message(5, initializer);
    }
    graph.string(10, docString);
    graph.message(11, valueInfo(input, inputDim));
    graph.message(12, valueInfo(output, outputDim));
    Proto model = new Proto();
    model.varint(1, IR_VERSION);
    model.string(2, "spark-kpca");
    model.string(3, producerVersion);
    model.string(4, "io.github.sparkkpca");
    model.varint(5, 1);
    model.string(6, docString);
    model.message(7, graph.bytes());
    Proto opset = new Proto();
    opset.string(1, "");
    opset.varint(2, OPSET);
    model.message(8, opset.bytes());
    return model.bytes();
  }

  private byte[] valueInfo(String name, int columns) {
    Proto batch = new Proto();
    batch.string(2, "N");
    Proto width = new Proto();
    width.varint(1, columns);
    Proto shape = new Proto();
    shape.message(1, batch.bytes());
    shape.message(1, width.bytes());
    Proto tensorType = new Proto();
    tensorType.varint(1, elementType);
    tensorType.message(2, shape.bytes());
    Proto type = new Proto();
    type.message(1, tensorType.bytes());
    Proto info = new Proto();
    info.string(1, name);
    info.message(2, type.bytes());
    return info.bytes();
  }

  private static byte[] tensor(String name, int dataType, byte[] raw, long... dims) {
    Proto tensor = new Proto();
    for (long dim : dims) {
      tensor.varint(1, dim);
    }
    tensor.varint(2, dataType);
    tensor.string(8, name);
    tensor.message(9, raw);
    return tensor.bytes();
  }

  /** One protobuf message being written: fields in the order given. */
  private static final class Proto {
    private final ByteArrayOutputStream out = new ByteArrayOutputStream();

    /** A varint field (wire type 0). */
    void varint(int field, long value) {
      raw((long) field << 3);
      raw(value);
    }

    /** A length-delimited field (wire type 2): a UTF-8 string. */
    void string(int field, String value) {
      message(field, value.getBytes(StandardCharsets.UTF_8));
    }

    /** A length-delimited field (wire type 2): an embedded message or bytes. */
    void message(int field, byte[] value) {
      raw(((long) field << 3) | 2);
      raw(value.length);
      out.write(value, 0, value.length);
    }

    private void raw(long value) {
      long v = value;
      while ((v & ~0x7FL) != 0) {
        out.write((int) ((v & 0x7F) | 0x80));
        v >>>= 7;
      }
      out.write((int) v);
    }

    byte[] bytes() {
      return out.toByteArray();
    }
  }
}
