package io.github.sparkkpca.persistence;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.parquet.hadoop.ParquetReader;
import org.apache.parquet.hadoop.api.InitContext;
import org.apache.parquet.hadoop.api.ReadSupport;
import org.apache.parquet.hadoop.util.HadoopInputFile;
import org.apache.parquet.io.api.Binary;
import org.apache.parquet.io.api.Converter;
import org.apache.parquet.io.api.GroupConverter;
import org.apache.parquet.io.api.PrimitiveConverter;
import org.apache.parquet.io.api.RecordMaterializer;
import org.apache.parquet.schema.GroupType;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.PrimitiveType.PrimitiveTypeName;
import org.apache.parquet.schema.Type;
import org.apache.spark.ml.linalg.DenseVector;
import org.apache.spark.ml.linalg.SparseVector;
import org.apache.spark.ml.linalg.VectorUDT;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.catalyst.expressions.GenericRowWithSchema;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructField;
import org.apache.spark.sql.types.StructType;

/**
 * Reads a model table that Spark wrote as Parquet on the driver, with Parquet's own reader and no
 * Spark job: what {@code spark.read().schema(schema).parquet(dir).collectAsList()} returns, for the
 * column types model tables hold (int, long, double, boolean, string and ML vectors).
 *
 * <p><b>Why.</b> A Spark job costs tenths of a second of scheduling, more in a fresh JVM, and a
 * model's load took eight of them (its metadata twice, then its tables): most of a small command's
 * fixed cost. Every row of a model table ends on the driver anyway, so a Spark read gains no
 * parallelism; reading the files here also skips the executors' copy of the rows and its
 * serialization. Values are decoded into primitive arrays, never boxed per value, so a landmark
 * table of hundreds of MB reads in its own size.
 *
 * <p><b>Layout read.</b> The directory's data files in name order, skipping hidden files ({@code
 * _SUCCESS}, {@code .crc}) as Spark's file index does. A vector column is the struct of Spark's
 * {@code VectorUDT}: {@code type} (0 sparse, 1 dense), {@code size}, {@code indices}, {@code
 * values}, with lists in the standard three-level form or Spark's legacy two-level form. A column
 * missing from a file, or of another physical type, is refused naming the column.
 */
final class ParquetRows {

  private ParquetRows() {}

  /**
   * The rows of every data file of the Parquet table {@code dir}, in file name order, each with
   * {@code schema}'s columns in its order.
   *
   * @throws java.io.FileNotFoundException when {@code dir} does not exist
   * @throws IOException naming the file when it cannot be read, lacks one of {@code schema}'s
   *     columns or holds it with another type (naming the column)
   */
  static List<Row> read(String dir, StructType schema, Configuration conf) throws IOException {
    List<Row> rows = new ArrayList<>();
    for (FileStatus file : dataFiles(new Path(dir), conf)) {
      try (ParquetReader<Row> reader = new RowReader(file, conf, schema).build()) {
        for (Row row = reader.read(); row != null; row = reader.read()) {
          rows.add(row);
        }
      } catch (IOException | RuntimeException e) {
        // Parquet's messages name a column or a page, seldom the file.
        throw new IOException("cannot read " + file.getPath() + ": " + e.getMessage(), e);
      }
    }
    return rows;
  }

  /**
   * The data files of the table directory {@code dir} in name order, as Spark's file index lists
   * them: no subdirectories, and none of the names it skips.
   *
   * @throws java.io.FileNotFoundException when {@code dir} does not exist
   */
  static List<FileStatus> dataFiles(Path dir, Configuration conf) throws IOException {
    List<FileStatus> files = new ArrayList<>();
    for (FileStatus file : dir.getFileSystem(conf).listStatus(dir)) {
      if (!file.isDirectory() && !hidden(file.getPath().getName())) {
        files.add(file);
      }
    }
    files.sort(Comparator.comparing(f -> f.getPath().getName()));
    return files;
  }

  /** The names Spark's file index skips: metadata and checksum files, and copies in progress. */
  private static boolean hidden(String name) {
    return ((name.startsWith("_") && !name.contains("=")) || name.startsWith("."))
        || name.endsWith("._COPYING_");
  }

  /**
   * A reader of one file with the caller's configuration: {@code ParquetReader.builder(support,
   * path)} starts from a new Hadoop {@code Configuration}, whose first read parses Hadoop's XML
   * defaults again (a tenth of a second per file, most of a small table's read).
   */
  private static final class RowReader extends ParquetReader.Builder<Row> {
    private final StructType schema;

    RowReader(FileStatus file, Configuration conf, StructType schema) throws IOException {
      super(HadoopInputFile.fromStatus(file, conf));
      this.schema = schema;
    }

    @Override
    protected ReadSupport<Row> getReadSupport() {
      return new RowSupport(schema);
    }
  }

  /** Reads the columns of {@code schema}, by name, into rows. */
  private static final class RowSupport extends ReadSupport<Row> {
    private final StructType schema;

    RowSupport(StructType schema) {
      this.schema = schema;
    }

    @Override
    public ReadContext init(InitContext context) {
      MessageType file = context.getFileSchema();
      List<Type> columns = new ArrayList<>();
      for (StructField field : schema.fields()) {
        if (!file.containsField(field.name())) {
          throw new IllegalArgumentException("no column '" + field.name() + "' in " + file);
        }
        columns.add(file.getType(field.name()));
      }
      return new ReadContext(new MessageType(file.getName(), columns));
    }

    @Override
    public RecordMaterializer<Row> prepareForRead(
        Configuration conf, Map<String, String> metadata, MessageType file, ReadContext context) {
      RowConverter root = new RowConverter(context.getRequestedSchema(), schema);
      return new RecordMaterializer<>() {
        @Override
        public Row getCurrentRecord() {
          return root.row();
        }

        @Override
        public GroupConverter getRootConverter() {
          return root;
        }
      };
    }
  }

  /** A record: one converter per column, each setting its slot of the row's values. */
  private static final class RowConverter extends GroupConverter {
    private final StructType schema;
    private final Converter[] columns;
    private Object[] values;

    RowConverter(GroupType group, StructType schema) {
      this.schema = schema;
      StructField[] fields = schema.fields();
      columns = new Converter[fields.length];
      for (int i = 0; i < fields.length; i++) {
        int slot = i;
        columns[i] = column(group.getType(i), fields[i].dataType(), v -> values[slot] = v);
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return columns[fieldIndex];
    }

    @Override
    public void start() {
      values = new Object[columns.length];
    }

    @Override
    public void end() {}

    Row row() {
      return new GenericRowWithSchema(values, schema);
    }
  }

  /** Where a converter puts the value it read; numbers may be taken without boxing. */
  private interface Sink {
    void accept(Object value);

    default void acceptInt(int value) {
      accept(value);
    }

    default void acceptDouble(double value) {
      accept(value);
    }
  }

  /** A column's value, passed to its sink. */
  private static final class Value extends PrimitiveConverter {
    private final Sink sink;

    Value(Sink sink) {
      this.sink = sink;
    }

    @Override
    public void addInt(int value) {
      sink.acceptInt(value);
    }

    @Override
    public void addLong(long value) {
      sink.accept(value);
    }

    @Override
    public void addDouble(double value) {
      sink.acceptDouble(value);
    }

    @Override
    public void addBoolean(boolean value) {
      sink.accept(value);
    }

    @Override
    public void addBinary(Binary value) {
      sink.accept(value.toStringUsingUTF8());
    }
  }

  /** A group with one field (a list and its repeated element), passed through to its converter. */
  private static final class Through extends GroupConverter {
    private final Converter child;

    Through(Converter child) {
      this.child = child;
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return child;
    }

    @Override
    public void start() {}

    @Override
    public void end() {}
  }

  /** The converter of one column of Spark type {@code type}, stored as {@code stored}. */
  private static Converter column(Type stored, DataType type, Sink sink) {
    if (type instanceof VectorUDT) {
      if (stored.isPrimitive()) {
        throw mismatch(stored, "an ML vector");
      }
      return new VectorConverter(stored.asGroupType(), sink);
    }
    PrimitiveTypeName expected;
    if (type.equals(DataTypes.IntegerType)) {
      expected = PrimitiveTypeName.INT32;
    } else if (type.equals(DataTypes.LongType)) {
      expected = PrimitiveTypeName.INT64;
    } else if (type.equals(DataTypes.DoubleType)) {
      expected = PrimitiveTypeName.DOUBLE;
    } else if (type.equals(DataTypes.BooleanType)) {
      expected = PrimitiveTypeName.BOOLEAN;
    } else if (type.equals(DataTypes.StringType)) {
      expected = PrimitiveTypeName.BINARY;
    } else {
      throw new IllegalArgumentException("no reader for column type " + type.simpleString());
    }
    if (!stored.isPrimitive()
        || stored.asPrimitiveType().getPrimitiveTypeName() != expected
        || stored.isRepetition(Type.Repetition.REPEATED)) {
      throw mismatch(stored, type.simpleString());
    }
    return new Value(sink);
  }

  private static IllegalArgumentException mismatch(Type stored, String expected) {
    return new IllegalArgumentException(
        "column '" + stored.getName() + "' is stored as " + stored + ", not as " + expected);
  }

  /**
   * An ML vector: Spark's {@code VectorUDT} struct of {@code type}, {@code size}, {@code indices}
   * and {@code values}; the lists are decoded into growing primitive arrays.
   */
  private static final class VectorConverter extends GroupConverter {
    private final Sink sink;
    private final Converter[] fields;
    private int type;
    private int size;
    private final Numbers indices = new Numbers();
    private final Numbers values = new Numbers();

    VectorConverter(GroupType group, Sink sink) {
      this.sink = sink;
      fields = new Converter[group.getFieldCount()];
      for (int i = 0; i < fields.length; i++) {
        Type field = group.getType(i);
        fields[i] =
            switch (field.getName()) {
              case "type" -> primitive(field, PrimitiveTypeName.INT32, n -> type = (Integer) n);
              case "size" -> primitive(field, PrimitiveTypeName.INT32, n -> size = (Integer) n);
              case "indices" -> list(field, PrimitiveTypeName.INT32, indices);
              case "values" -> list(field, PrimitiveTypeName.DOUBLE, values);
              default -> throw mismatch(group, "an ML vector");
            };
      }
    }

    @Override
    public Converter getConverter(int fieldIndex) {
      return fields[fieldIndex];
    }

    @Override
    public void start() {
      type = -1;
      size = -1;
      indices.clear();
      values.clear();
    }

    @Override
    public void end() {
      if (type == 1) {
        sink.accept(new DenseVector(values.doubles()));
      } else if (type == 0 && size >= 0) {
        sink.accept(new SparseVector(size, indices.ints(), values.doubles()));
      } else {
        throw new IllegalArgumentException(
            "a vector of type " + type + " and size " + size + " is neither dense nor sparse");
      }
    }

    /** A number column of the vector's struct. */
    private static Value primitive(Type field, PrimitiveTypeName expected, Sink into) {
      if (!field.isPrimitive() || field.asPrimitiveType().getPrimitiveTypeName() != expected) {
        throw mismatch(field, expected.name());
      }
      return new Value(into);
    }

    /**
     * A list column: {@code LIST} with a repeated group of one element (the standard form) or a
     * repeated primitive (Spark's legacy form).
     */
    private static GroupConverter list(Type field, PrimitiveTypeName expected, Numbers into) {
      if (field.isPrimitive() || field.asGroupType().getFieldCount() != 1) {
        throw mismatch(field, "a list");
      }
      Type repeated = field.asGroupType().getType(0);
      Value element = primitive(elementOf(repeated), expected, into);
      return new Through(repeated.isPrimitive() ? element : new Through(element));
    }

    private static Type elementOf(Type repeated) {
      if (repeated.isPrimitive()) {
        return repeated;
      }
      GroupType group = repeated.asGroupType();
      if (group.getFieldCount() != 1) {
        throw mismatch(repeated, "a list element");
      }
      return group.getType(0);
    }
  }

  /** A growing array of numbers, reused from row to row. */
  private static final class Numbers implements Sink {
    private double[] numbers = new double[16];
    private int count;

    @Override
    public void accept(Object value) {
      acceptDouble(((Number) value).doubleValue());
    }

    @Override
    public void acceptInt(int value) {
      acceptDouble(value);
    }

    @Override
    public void acceptDouble(double value) {
      if (count == numbers.length) {
        numbers = Arrays.copyOf(numbers, Math.max(16, 2 * count));
      }
      numbers[count++] = value;
    }

    void clear() {
      count = 0;
    }

    double[] doubles() {
      return Arrays.copyOf(numbers, count);
    }

    int[] ints() {
      int[] out = new int[count];
      for (int i = 0; i < count; i++) {
        out[i] = (int) numbers[i];
      }
      return out;
    }
  }
}
