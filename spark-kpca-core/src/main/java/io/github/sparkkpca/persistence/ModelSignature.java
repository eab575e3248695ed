package io.github.sparkkpca.persistence;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.function.UnaryOperator;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.spark.sql.SparkSession;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The optional signature of a saved stage: with a signing key configured ({@value #CONF} in the
 * Spark conf, else the environment variable {@value #ENV}; never stored in the model), every {@link
 * Manifest} written is followed by {@value #NAME}, an HMAC-SHA256 under that key of the manifest's
 * bytes, and every load refuses a stage whose signature is missing or does not match. The manifest
 * lists every file of the stage with its SHA-256, so the signature covers them all: a model edited
 * and its manifest recomputed, by anyone without the key, is refused.
 *
 * <p>Without a key a signed stage loads as any other (its manifest checked, its signature not, with
 * an INFO line saying so), so a model signed for production can still be read where no key is
 * configured; nothing then proves who wrote it. A stage written without a key has no signature.
 *
 * <p>The key is the UTF-8 bytes of the configured string; an empty string counts as no key. The
 * conf is read from the loading session ({@link #verify}) or, for a write, from the active session
 * ({@link #sign}), so {@code spark.conf.set(...)} at run time applies to the next save or load.
 */
public final class ModelSignature {

  /** The Spark conf holding the signing key. */
  public static final String CONF = "spark.kpca.model.signingSecret";

  /** The environment variable holding the signing key when the conf does not. */
  public static final String ENV = "SPARK_KPCA_SIGNING_KEY";

  /** The signature's file name at the stage root (hidden from Hadoop's and Spark's readers). */
  public static final String NAME = "_signature.json";

  /** The format tag of the signature file. */
  static final String FORMAT = "spark-kpca-signature-1";

  private static final String ALGORITHM = "HmacSHA256";

  private static final Logger LOG = LoggerFactory.getLogger(ModelSignature.class);

  /** Where the environment variable is read: {@link System#getenv} except in tests. */
  static UnaryOperator<String> environment = System::getenv;

  private ModelSignature() {}

  /** The configured key of this session: its conf, else the environment; null when none. */
  static byte[] key(SparkSession spark) {
    String value = spark == null ? null : spark.conf().get(CONF, null);
    if (value == null || value.isEmpty()) {
      value = environment.apply(ENV);
    }
    return value == null || value.isEmpty() ? null : value.getBytes(StandardCharsets.UTF_8);
  }

  /** The key of the active (else default) session, or of the environment when there is none. */
  private static byte[] activeKey() {
    SparkSession spark =
        SparkSession.getActiveSession().isDefined()
            ? SparkSession.getActiveSession().get()
            : SparkSession.getDefaultSession().isDefined()
                ? SparkSession.getDefaultSession().get()
                : null;
    return key(spark);
  }

  /**
   * Signs the manifest just written at {@code root} when a key is configured; otherwise removes a
   * signature left from an earlier write (it would no longer match).
   */
  static void sign(FileSystem fs, Path root) throws IOException {
    byte[] key = activeKey();
    Path signature = new Path(root, NAME);
    if (key == null) {
      if (fs.exists(signature)) {
        fs.delete(signature, false);
      }
      return;
    }
    ObjectNode json = Persistence.JSON.createObjectNode();
    json.put("format", FORMAT);
    json.put("algorithm", ALGORITHM);
    json.put("signs", Manifest.NAME);
    json.put("hmac", hmac(key, read(fs, new Path(root, Manifest.NAME))));
    try (OutputStream out = Persistence.withoutChecksums(fs).create(signature, true)) {
      out.write(Persistence.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(json));
    }
  }

  /**
   * Checks the signature of the stage at {@code path} (whose manifest {@link Manifest#verify} has
   * checked) when the session has a key: refuses a stage without a manifest or a signature, or
   * whose signature is not the manifest's under that key. Without a key, a signed stage loads with
   * an INFO line.
   *
   * @param what the start of every message, e.g. "Cannot load X from 'path': "
   * @throws IllegalArgumentException starting with {@code what}
   */
  static void verify(String path, SparkSession spark, String what) {
    byte[] key = key(spark);
    Configuration conf = spark.sparkContext().hadoopConfiguration();
    Path root = new Path(path);
    try {
      FileSystem fs = root.getFileSystem(conf);
      Path signature = new Path(root, NAME);
      Path manifest = new Path(root, Manifest.NAME);
      if (key == null) {
        if (fs.exists(signature)) {
          LOG.info(
              "{} is signed; no signing key is configured ({} or {}), so its signature is not"
                  + " checked",
              path,
              CONF,
              ENV);
        }
        return;
      }
      if (!fs.exists(signature) || !fs.exists(manifest)) {
        throw new IllegalArgumentException(
            what
                + "it is not signed (no "
                + (fs.exists(manifest) ? NAME : Manifest.NAME + " and no " + NAME)
                + "), but a signing key is configured ("
                + CONF
                + " or "
                + ENV
                + "), so only models signed with that key are loaded; save it again with the key");
      }
      JsonNode json;
      try (InputStream in = fs.open(signature)) {
        json = Persistence.JSON.readTree(in);
      } catch (IOException e) {
        json = null;
      }
      String stored = json == null ? "" : json.path("hmac").asText("");
      boolean valid =
          json != null
              && FORMAT.equals(json.path("format").asText())
              && MessageDigest.isEqual(
                  stored.getBytes(StandardCharsets.US_ASCII),
                  hmac(key, read(fs, manifest)).getBytes(StandardCharsets.US_ASCII));
      if (!valid) {
        throw new IllegalArgumentException(
            what
                + NAME
                + " does not match "
                + Manifest.NAME
                + " under the configured signing key ("
                + CONF
                + " or "
                + ENV
                + "): the model was changed after it was signed, or signed with another key");
      }
    } catch (IOException e) {
      throw new IllegalArgumentException(
          what + "cannot check its signature (" + Persistence.firstLine(e) + ")", e);
    }
  }

  private static byte[] read(FileSystem fs, Path file) throws IOException {
    try (InputStream in = fs.open(file)) {
      return in.readAllBytes();
    }
  }

  private static String hmac(byte[] key, byte[] content) {
    try {
      Mac mac = Mac.getInstance(ALGORITHM);
      mac.init(new SecretKeySpec(key, ALGORITHM));
      mac.update(FORMAT.getBytes(StandardCharsets.US_ASCII));
      mac.update((byte) '\n');
      return HexFormat.of().formatHex(mac.doFinal(content));
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException("this JVM has no " + ALGORITHM, e);
    }
  }
}
