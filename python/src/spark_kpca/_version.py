"""The package version, kept in step with the Maven project version (a test compares them)."""

#: The Maven version of the library jar this package wraps (``<version>`` of the root ``pom.xml``).
MAVEN_VERSION = "0.2.0-SNAPSHOT"

#: The same version in PEP 440 form (``-SNAPSHOT`` becomes ``.dev0``).
__version__ = "0.2.0.dev0"
