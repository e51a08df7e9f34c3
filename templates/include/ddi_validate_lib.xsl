<?xml version="1.0" encoding="UTF-8"?>
<!-- Shared by ddi_validate.h.xsl, ddi_validate.c.xsl and ddi_rules.c.xsl
     (not rendered on its own): the lowered plan, type spelling, gating. -->
<xsl:stylesheet version="1.0"
                xmlns:xsl="http://www.w3.org/1999/XSL/Transform"
                xmlns:d="urn:ddigen:xslt"
                xmlns:dv="urn:ddigen:view"
                exclude-result-prefixes="d dv">
  <!-- Checks, reserved-bit groups and skipped rules per record, decided by
       gen/rules (the same lowering ddigen trace evaluates), with each
       node's #if (dv:guard) and each record's type spelling (dv:c-type)
       from gen/emit/view.c. A record whose tag is declared inside another
       (C++ spelling differs) is spelled through DDI_VALIDATE_TYPE_<name>,
       which ddi_validate.h defines for C and for C++. -->
  <xsl:variable name="plan" select="d:validation-plan()"/>
  <xsl:variable name="vrecords" select="$plan/record[not(@never) and not(@dv:out-of-scope)]"/>

  <!-- "#if COND\n" for a gated plan node (its versions and architectures,
       decided in gen/emit/view.c), else nothing. -->
  <xsl:template name="open-guard">
    <xsl:param name="node" select="."/>
    <xsl:if test="$node/@dv:guard"><xsl:value-of select="concat('#if ', $node/@dv:guard, '&#10;')"/></xsl:if>
  </xsl:template>
  <xsl:template name="close-guard">
    <xsl:param name="node" select="."/>
    <xsl:if test="$node/@dv:guard"><xsl:text>#endif&#10;</xsl:text></xsl:if>
  </xsl:template>

  <!-- The union members a record's selector dispatches to (first case wins). -->
  <xsl:template name="dir-matches">
    <xsl:param name="dir"/>
    <xsl:param name="node" select="."/>
    <xsl:if test="$node/@dir = 'both' or $node/@dir = $dir">1</xsl:if>
  </xsl:template>
</xsl:stylesheet>
