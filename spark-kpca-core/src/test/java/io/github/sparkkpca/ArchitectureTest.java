package io.github.sparkkpca;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.CompositeArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import io.github.sparkkpca.linalg.SymmetricStorage;
import io.github.sparkkpca.linalg.UpwardDependencySample;
import java.net.URISyntaxException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * The core's packages form layers, lowest first, and a package uses only packages of lower layers
 * (never one of its own layer, nor a higher one), so the package graph has no cycles and nothing
 * below {@code ml} depends on the public stages. Read from the compiled classes (ArchUnit), so
 * every kind of use counts: imports, fully qualified names, inheritance, calls, fields.
 *
 * <p>The same order is written in docs/design.md ("Layers") and in each package-info.java.
 */
class ArchitectureTest {

  private static final String BASE = "io.github.sparkkpca";

  /** The layers, lowest first; packages of one layer may not use each other. */
  static final List<List<String>> LAYERS =
      List.of(
          List.of("linalg"),
          List.of("kernel"),
          List.of("feature"),
          List.of("pca"),
          List.of("regression"),
          List.of("execution"),
          List.of("landmarks"),
          List.of("persistence"),
          List.of("ml"),
          List.of("streaming", "evaluation"));

  private static JavaClasses main;

  /** The directory or jar the core's main classes were loaded from. */
  private static Path locationOf(Class<?> c) {
    try {
      return Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The core's main classes (read from where they were compiled to, not the whole class path). */
  private static synchronized JavaClasses mainClasses() {
    if (main == null) {
      main = new ClassFileImporter().importPath(locationOf(SymmetricStorage.class));
    }
    return main;
  }

  /** One rule per package: none of its classes depends on a class of its own or a higher layer. */
  static ArchRule layerRule() {
    List<ArchRule> rules = new ArrayList<>();
    for (int i = 0; i < LAYERS.size(); i++) {
      for (String pkg : LAYERS.get(i)) {
        List<String> above = new ArrayList<>();
        for (int j = i; j < LAYERS.size(); j++) {
          for (String other : LAYERS.get(j)) {
            if (!other.equals(pkg)) {
              above.add(BASE + "." + other + "..");
            }
          }
        }
        if (above.isEmpty()) {
          continue;
        }
        rules.add(
            noClasses()
                .that()
                .resideInAPackage(BASE + "." + pkg + "..")
                .should()
                .dependOnClassesThat()
                .resideInAnyPackage(above.toArray(String[]::new))
                .because(pkg + " may use only the layers below it: " + LAYERS));
      }
    }
    CompositeArchRule composite = CompositeArchRule.of(rules.get(0));
    for (ArchRule rule : rules.subList(1, rules.size())) {
      composite = composite.and(rule);
    }
    return composite;
  }

  static ArchRule cycleRule() {
    return slices().matching(BASE + ".(*)..").should().beFreeOfCycles();
  }

  @Test
  void everyPackageHasALayer() {
    Set<String> declared =
        LAYERS.stream().flatMap(List::stream).collect(Collectors.toCollection(TreeSet::new));
    Set<String> found = new TreeSet<>();
    for (JavaClass c : mainClasses()) {
      String rest = c.getPackageName().substring(BASE.length());
      found.add(rest.isEmpty() ? "(root)" : rest.substring(1).split("\\.")[0]);
    }
    assertEquals(declared, found, "a core package is missing from LAYERS, or LAYERS names none");
  }

  @Test
  void packagesUseOnlyLowerLayers() {
    layerRule().check(mainClasses());
  }

  @Test
  void packageGraphHasNoCycles() {
    cycleRule().check(mainClasses());
  }

  /** The rules are not vacuous: a linalg class that uses a stage breaks both. */
  @Test
  void anUpwardDependencyIsCaught() {
    Path sample =
        locationOf(UpwardDependencySample.class)
            .resolve(UpwardDependencySample.class.getName().replace('.', '/') + ".class");
    JavaClasses withSample =
        new ClassFileImporter().importPaths(locationOf(SymmetricStorage.class), sample);
    assertTrue(withSample.contain(UpwardDependencySample.class));
    EvaluationResult layers = layerRule().evaluate(withSample);
    assertTrue(layers.hasViolation());
    String report = layers.getFailureReport().toString();
    assertTrue(report.contains("UpwardDependencySample"), report);
    assertTrue(report.contains("NystromKernelPCA"), report);
    assertTrue(cycleRule().evaluate(withSample).hasViolation());
    assertFalse(layerRule().evaluate(mainClasses()).hasViolation());
  }
}
