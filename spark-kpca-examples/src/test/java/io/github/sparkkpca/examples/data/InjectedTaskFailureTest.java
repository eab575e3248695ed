package io.github.sparkkpca.examples.data;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.sparkkpca.examples.cli.TestSpark;
import java.util.List;
import org.apache.spark.SparkException;
import org.apache.spark.ml.attribute.AttributeGroup;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.SparkSession;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The fault-injection hook of the loaded input: inert by default, and when configured it fails
 * exactly the first attempt of the chosen partition. The tests' local[2] session does not retry
 * tasks, so that first attempt fails the job; {@code StandaloneClusterIT} checks that a cluster
 * retries it.
 */
class InjectedTaskFailureTest {

  private static final String INPUT = "synthetic:n=200,d=3,seed=5,partitions=4";

  @AfterEach
  void unset() {
    TestSpark.session().conf().unset(InjectedTaskFailure.CONF);
  }

  private static LoadedData load() {
    return DataSources.load(
        TestSpark.session(), new SourceOptions(INPUT, null, "f", null, null, null, null));
  }

  @Test
  void unsetLeavesTheRowsAsTheyAre() {
    Dataset<Row> rows = TestSpark.session().range(10).toDF();
    assertSame(rows, InjectedTaskFailure.apply(rows));
    LoadedData data = load();
    assertEquals(200, data.persistAndValidate());
    data.unpersist();
  }

  @Test
  void theFirstAttemptOfTheChosenPartitionThrows() {
    SparkSession spark = TestSpark.session();
    spark.conf().set(InjectedTaskFailure.CONF, "2");
    LoadedData data = load();
    // Columns and metadata unchanged: the vector size is still in the schema.
    assertEquals(3, AttributeGroup.fromStructField(data.data().schema().apply("f")).size());
    assertEquals(List.of("id", "f", "label"), List.of(data.data().columns()));
    SparkException e = assertThrows(SparkException.class, data::persistAndValidate);
    assertTrue(
        e.getMessage()
            .contains(
                InjectedTaskFailure.CONF + "=2: injected failure of attempt 0 of " + "partition 2"),
        e::getMessage);
  }

  @Test
  void otherPartitionsPassThrough() {
    TestSpark.session().conf().set(InjectedTaskFailure.CONF, "4");
    LoadedData data = load();
    assertEquals(200, data.persistAndValidate());
    data.unpersist();
  }

  @Test
  void aValueThatIsNoPartitionIndexIsRefusedByName() {
    for (String bad : new String[] {"-1", "three"}) {
      TestSpark.session().conf().set(InjectedTaskFailure.CONF, bad);
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, InjectedTaskFailureTest::load);
      assertEquals(
          InjectedTaskFailure.CONF
              + " must be a partition index (an integer >= 0), got '"
              + bad
              + "'",
          e.getMessage());
    }
  }
}
