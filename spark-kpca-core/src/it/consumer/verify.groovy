// What a user of spark-kpca-core gets from the published artifact, checked after the consumer's build passed
// (its test fitted, saved, loaded and scored a model with the installed jar). Variables from the invoker:
// basedir (this project's copy), localRepositoryPath (where the invoker installed the artifact), and the
// scriptVariables artifactId, version and scalaBinaryVersion of the spark-kpca-core build.
import java.util.zip.ZipFile

File artifactDir = new File(localRepositoryPath, "io/github/sparkkpca/${artifactId}/${version}")
File pomFile = new File(artifactDir, "${artifactId}-${version}.pom")
File jarFile = new File(artifactDir, "${artifactId}-${version}.jar")
assert pomFile.isFile() : "not installed: ${pomFile}"
assert jarFile.isFile() : "not installed: ${jarFile}"

// 1. The published POM: resolved, self-contained, with Maven Central's metadata, and Spark and Scala provided.
String pomText = pomFile.text
assert !pomText.contains('${') : "unresolved expression in the published POM:\n${pomText}"
def pom = new groovy.xml.XmlSlurper().parseText(pomText)
assert pom.artifactId.text() == artifactId
assert pom.artifactId.text().endsWith("_${scalaBinaryVersion}")
assert pom.version.text() == version
assert pom.parent.size() == 0 : 'the published POM must not need a parent POM'
assert pom.build.size() == 0 && pom.profiles.size() == 0
for (String element : ['name', 'description', 'url']) {
  assert !pom."${element}".text().isBlank() : "the published POM has no ${element}"
}
assert pom.licenses.license.name.text() == 'Apache-2.0'
assert !pom.developers.developer.name.text().isBlank()
assert !pom.scm.url.text().isBlank() && !pom.scm.connection.text().isBlank()
def dependencies = pom.dependencies.dependency.collect { d ->
  "${d.groupId.text()}:${d.artifactId.text()}:${d.version.text()}:${d.scope.text()}".toString()
}
def expected = ["spark-core_${scalaBinaryVersion}", "spark-sql_${scalaBinaryVersion}", "spark-mllib_${scalaBinaryVersion}",
    'scala-library', 'commons-math3']*.toString()
assert pom.dependencies.dependency.collect { it.artifactId.text() }.sort() == expected.sort() : dependencies
pom.dependencies.dependency.each { d ->
  assert d.groupId.text() in ['org.apache.spark', 'org.scala-lang', 'org.apache.commons'] : dependencies
  assert d.scope.text() == 'provided' : "not provided: ${dependencies}"
  assert d.version.text() ==~ /\d+\.\d+\.\d+/ : dependencies
}

// 2. The jar holds this project's classes and its license files only: no Spark, no Scala, nothing shaded.
def entries = new ZipFile(jarFile).withCloseable { zip -> zip.entries().collect { it.name } }
def foreign = entries.findAll { !(it.startsWith('io/github/sparkkpca/') || it.startsWith('META-INF/')
    || it == 'io/' || it == 'io/github/') }
assert foreign.isEmpty() : "classes or files of others in ${jarFile.name}: ${foreign.take(20)}"
assert entries.contains('io/github/sparkkpca/ml/NystromKernelPCA.class')
assert entries.contains('META-INF/LICENSE') && entries.contains('META-INF/NOTICE')

// 3. The consumer's resolved dependencies: spark-kpca-core is the only compile or runtime one, so the library
//    brings nothing onto a user's class path (the consumer declares Spark provided and JUnit test itself).
def listed = new File(basedir, 'target/dependencies.txt').readLines()
    .collect { it.trim().replaceAll(/ -- .*$/, '') }
    .findAll { it ==~ /[^:\s]+:[^:\s]+:[^:\s]+(:[^:\s]+)?:[^:\s]+:(compile|runtime|provided|test|system)/ }
assert listed.any { it.contains(":${artifactId}:") } : listed
def onClassPath = listed.findAll { it.endsWith(':compile') || it.endsWith(':runtime') }
assert onClassPath == ["io.github.sparkkpca:${artifactId}:jar:${version}:compile".toString()] : onClassPath

// 4. The consumer's test ran and passed.
String log = new File(basedir, 'build.log').text
assert log.contains('Tests run: 1, Failures: 0, Errors: 0, Skipped: 0') : 'the consumer test did not run'
return true
