package testapp.misbehaving;

/**
 * A statement whose every method throws: execute* a SQLException, every other method an UnsupportedOperationException.
 * Generated from {@code javap -public} of java.sql.CallableStatement, java.sql.PreparedStatement, java.sql.Statement, java.sql.Wrapper, java.lang.AutoCloseable.
 */
@SuppressWarnings({"deprecation", "unchecked", "rawtypes"})
public final class ThrowingStatement implements java.sql.CallableStatement {

    @Override
    public void registerOutParameter(int a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(int a0, int a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public boolean wasNull() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.wasNull");
    }

    @Override
    public java.lang.String getString(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getString");
    }

    @Override
    public boolean getBoolean(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBoolean");
    }

    @Override
    public byte getByte(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getByte");
    }

    @Override
    public short getShort(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getShort");
    }

    @Override
    public int getInt(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getInt");
    }

    @Override
    public long getLong(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getLong");
    }

    @Override
    public float getFloat(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getFloat");
    }

    @Override
    public double getDouble(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDouble");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBigDecimal");
    }

    @Override
    public byte[] getBytes(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBytes");
    }

    @Override
    public java.sql.Date getDate(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDate");
    }

    @Override
    public java.sql.Time getTime(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTime");
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTimestamp");
    }

    @Override
    public java.lang.Object getObject(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBigDecimal");
    }

    @Override
    public java.lang.Object getObject(int a0, java.util.Map<java.lang.String, java.lang.Class<?>> a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public java.sql.Ref getRef(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getRef");
    }

    @Override
    public java.sql.Blob getBlob(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBlob");
    }

    @Override
    public java.sql.Clob getClob(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getClob");
    }

    @Override
    public java.sql.Array getArray(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getArray");
    }

    @Override
    public java.sql.Date getDate(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDate");
    }

    @Override
    public java.sql.Time getTime(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTime");
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTimestamp");
    }

    @Override
    public void registerOutParameter(int a0, int a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, int a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public java.net.URL getURL(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getURL");
    }

    @Override
    public void setURL(java.lang.String a0, java.net.URL a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setURL");
    }

    @Override
    public void setNull(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNull");
    }

    @Override
    public void setBoolean(java.lang.String a0, boolean a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBoolean");
    }

    @Override
    public void setByte(java.lang.String a0, byte a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setByte");
    }

    @Override
    public void setShort(java.lang.String a0, short a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setShort");
    }

    @Override
    public void setInt(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setInt");
    }

    @Override
    public void setLong(java.lang.String a0, long a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setLong");
    }

    @Override
    public void setFloat(java.lang.String a0, float a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setFloat");
    }

    @Override
    public void setDouble(java.lang.String a0, double a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDouble");
    }

    @Override
    public void setBigDecimal(java.lang.String a0, java.math.BigDecimal a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBigDecimal");
    }

    @Override
    public void setString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setString");
    }

    @Override
    public void setBytes(java.lang.String a0, byte[] a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBytes");
    }

    @Override
    public void setDate(java.lang.String a0, java.sql.Date a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDate");
    }

    @Override
    public void setTime(java.lang.String a0, java.sql.Time a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTime");
    }

    @Override
    public void setTimestamp(java.lang.String a0, java.sql.Timestamp a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTimestamp");
    }

    @Override
    public void setAsciiStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setBinaryStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void setObject(java.lang.String a0, java.lang.Object a1, int a2, int a3) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setObject(java.lang.String a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setObject(java.lang.String a0, java.lang.Object a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setCharacterStream(java.lang.String a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setDate(java.lang.String a0, java.sql.Date a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDate");
    }

    @Override
    public void setTime(java.lang.String a0, java.sql.Time a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTime");
    }

    @Override
    public void setTimestamp(java.lang.String a0, java.sql.Timestamp a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTimestamp");
    }

    @Override
    public void setNull(java.lang.String a0, int a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNull");
    }

    @Override
    public java.lang.String getString(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getString");
    }

    @Override
    public boolean getBoolean(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBoolean");
    }

    @Override
    public byte getByte(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getByte");
    }

    @Override
    public short getShort(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getShort");
    }

    @Override
    public int getInt(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getInt");
    }

    @Override
    public long getLong(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getLong");
    }

    @Override
    public float getFloat(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getFloat");
    }

    @Override
    public double getDouble(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDouble");
    }

    @Override
    public byte[] getBytes(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBytes");
    }

    @Override
    public java.sql.Date getDate(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDate");
    }

    @Override
    public java.sql.Time getTime(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTime");
    }

    @Override
    public java.sql.Timestamp getTimestamp(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTimestamp");
    }

    @Override
    public java.lang.Object getObject(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBigDecimal");
    }

    @Override
    public java.lang.Object getObject(java.lang.String a0, java.util.Map<java.lang.String, java.lang.Class<?>> a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public java.sql.Ref getRef(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getRef");
    }

    @Override
    public java.sql.Blob getBlob(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getBlob");
    }

    @Override
    public java.sql.Clob getClob(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getClob");
    }

    @Override
    public java.sql.Array getArray(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getArray");
    }

    @Override
    public java.sql.Date getDate(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getDate");
    }

    @Override
    public java.sql.Time getTime(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTime");
    }

    @Override
    public java.sql.Timestamp getTimestamp(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getTimestamp");
    }

    @Override
    public java.net.URL getURL(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getURL");
    }

    @Override
    public java.sql.RowId getRowId(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getRowId");
    }

    @Override
    public java.sql.RowId getRowId(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getRowId");
    }

    @Override
    public void setRowId(java.lang.String a0, java.sql.RowId a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setRowId");
    }

    @Override
    public void setNString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNString");
    }

    @Override
    public void setNCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNCharacterStream");
    }

    @Override
    public void setNClob(java.lang.String a0, java.sql.NClob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public void setClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setBlob(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setNClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public java.sql.NClob getNClob(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNClob");
    }

    @Override
    public java.sql.NClob getNClob(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNClob");
    }

    @Override
    public void setSQLXML(java.lang.String a0, java.sql.SQLXML a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setSQLXML");
    }

    @Override
    public java.sql.SQLXML getSQLXML(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getSQLXML");
    }

    @Override
    public java.sql.SQLXML getSQLXML(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getSQLXML");
    }

    @Override
    public java.lang.String getNString(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNString");
    }

    @Override
    public java.lang.String getNString(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNString");
    }

    @Override
    public java.io.Reader getNCharacterStream(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNCharacterStream");
    }

    @Override
    public java.io.Reader getNCharacterStream(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getNCharacterStream");
    }

    @Override
    public java.io.Reader getCharacterStream(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getCharacterStream");
    }

    @Override
    public java.io.Reader getCharacterStream(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getCharacterStream");
    }

    @Override
    public void setBlob(java.lang.String a0, java.sql.Blob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setClob(java.lang.String a0, java.sql.Clob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setAsciiStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setBinaryStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void setCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setAsciiStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setBinaryStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void setCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setNCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNCharacterStream");
    }

    @Override
    public void setClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setBlob(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setNClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public <T> T getObject(int a0, java.lang.Class<T> a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public <T> T getObject(java.lang.String a0, java.lang.Class<T> a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getObject");
    }

    @Override
    public void setObject(java.lang.String a0, java.lang.Object a1, java.sql.SQLType a2, int a3) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setObject(java.lang.String a0, java.lang.Object a1, java.sql.SQLType a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(int a0, java.sql.SQLType a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, java.sql.SQLType a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, java.sql.SQLType a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public void registerOutParameter(java.lang.String a0, java.sql.SQLType a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.registerOutParameter");
    }

    @Override
    public java.sql.ResultSet executeQuery() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeQuery", "08000");
    }

    @Override
    public int executeUpdate() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeUpdate", "08000");
    }

    @Override
    public void setNull(int a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNull");
    }

    @Override
    public void setBoolean(int a0, boolean a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBoolean");
    }

    @Override
    public void setByte(int a0, byte a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setByte");
    }

    @Override
    public void setShort(int a0, short a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setShort");
    }

    @Override
    public void setInt(int a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setInt");
    }

    @Override
    public void setLong(int a0, long a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setLong");
    }

    @Override
    public void setFloat(int a0, float a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setFloat");
    }

    @Override
    public void setDouble(int a0, double a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDouble");
    }

    @Override
    public void setBigDecimal(int a0, java.math.BigDecimal a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBigDecimal");
    }

    @Override
    public void setString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setString");
    }

    @Override
    public void setBytes(int a0, byte[] a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBytes");
    }

    @Override
    public void setDate(int a0, java.sql.Date a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDate");
    }

    @Override
    public void setTime(int a0, java.sql.Time a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTime");
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTimestamp");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setUnicodeStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setUnicodeStream");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void clearParameters() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.clearParameters");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public boolean execute() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.execute", "08000");
    }

    @Override
    public void addBatch() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.addBatch");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setRef(int a0, java.sql.Ref a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setRef");
    }

    @Override
    public void setBlob(int a0, java.sql.Blob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setClob(int a0, java.sql.Clob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setArray(int a0, java.sql.Array a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setArray");
    }

    @Override
    public java.sql.ResultSetMetaData getMetaData() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getMetaData");
    }

    @Override
    public void setDate(int a0, java.sql.Date a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setDate");
    }

    @Override
    public void setTime(int a0, java.sql.Time a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTime");
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setTimestamp");
    }

    @Override
    public void setNull(int a0, int a1, java.lang.String a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNull");
    }

    @Override
    public void setURL(int a0, java.net.URL a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setURL");
    }

    @Override
    public java.sql.ParameterMetaData getParameterMetaData() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getParameterMetaData");
    }

    @Override
    public void setRowId(int a0, java.sql.RowId a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setRowId");
    }

    @Override
    public void setNString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNString");
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNCharacterStream");
    }

    @Override
    public void setNClob(int a0, java.sql.NClob a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public void setClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public void setSQLXML(int a0, java.sql.SQLXML a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setSQLXML");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, int a2, int a3) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setAsciiStream");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBinaryStream");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCharacterStream");
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNCharacterStream");
    }

    @Override
    public void setClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setClob");
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setBlob");
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setNClob");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, java.sql.SQLType a2, int a3) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, java.sql.SQLType a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setObject");
    }

    @Override
    public long executeLargeUpdate() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeUpdate", "08000");
    }

    @Override
    public java.sql.ResultSet executeQuery(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeQuery", "08000");
    }

    @Override
    public int executeUpdate(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeUpdate", "08000");
    }

    @Override
    public void close() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.close");
    }

    @Override
    public int getMaxFieldSize() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getMaxFieldSize");
    }

    @Override
    public void setMaxFieldSize(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setMaxFieldSize");
    }

    @Override
    public int getMaxRows() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getMaxRows");
    }

    @Override
    public void setMaxRows(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setMaxRows");
    }

    @Override
    public void setEscapeProcessing(boolean a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setEscapeProcessing");
    }

    @Override
    public int getQueryTimeout() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getQueryTimeout");
    }

    @Override
    public void setQueryTimeout(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setQueryTimeout");
    }

    @Override
    public void cancel() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.cancel");
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getWarnings");
    }

    @Override
    public void clearWarnings() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.clearWarnings");
    }

    @Override
    public void setCursorName(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setCursorName");
    }

    @Override
    public boolean execute(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.execute", "08000");
    }

    @Override
    public java.sql.ResultSet getResultSet() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getResultSet");
    }

    @Override
    public int getUpdateCount() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getUpdateCount");
    }

    @Override
    public boolean getMoreResults() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getMoreResults");
    }

    @Override
    public void setFetchDirection(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setFetchDirection");
    }

    @Override
    public int getFetchDirection() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getFetchDirection");
    }

    @Override
    public void setFetchSize(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setFetchSize");
    }

    @Override
    public int getFetchSize() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getFetchSize");
    }

    @Override
    public int getResultSetConcurrency() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getResultSetConcurrency");
    }

    @Override
    public int getResultSetType() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getResultSetType");
    }

    @Override
    public void addBatch(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.addBatch");
    }

    @Override
    public void clearBatch() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.clearBatch");
    }

    @Override
    public int[] executeBatch() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeBatch", "08000");
    }

    @Override
    public java.sql.Connection getConnection() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getConnection");
    }

    @Override
    public boolean getMoreResults(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getMoreResults");
    }

    @Override
    public java.sql.ResultSet getGeneratedKeys() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getGeneratedKeys");
    }

    @Override
    public int executeUpdate(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeUpdate", "08000");
    }

    @Override
    public int executeUpdate(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeUpdate", "08000");
    }

    @Override
    public int executeUpdate(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeUpdate", "08000");
    }

    @Override
    public boolean execute(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.execute", "08000");
    }

    @Override
    public boolean execute(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.execute", "08000");
    }

    @Override
    public boolean execute(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.execute", "08000");
    }

    @Override
    public int getResultSetHoldability() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getResultSetHoldability");
    }

    @Override
    public boolean isClosed() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.isClosed");
    }

    @Override
    public void setPoolable(boolean a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setPoolable");
    }

    @Override
    public boolean isPoolable() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.isPoolable");
    }

    @Override
    public void closeOnCompletion() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.closeOnCompletion");
    }

    @Override
    public boolean isCloseOnCompletion() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.isCloseOnCompletion");
    }

    @Override
    public long getLargeUpdateCount() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getLargeUpdateCount");
    }

    @Override
    public void setLargeMaxRows(long a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.setLargeMaxRows");
    }

    @Override
    public long getLargeMaxRows() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.getLargeMaxRows");
    }

    @Override
    public long[] executeLargeBatch() throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeBatch", "08000");
    }

    @Override
    public long executeLargeUpdate(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeUpdate", "08000");
    }

    @Override
    public long executeLargeUpdate(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeUpdate", "08000");
    }

    @Override
    public long executeLargeUpdate(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeUpdate", "08000");
    }

    @Override
    public long executeLargeUpdate(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLException("throwing driver: Statement.executeLargeUpdate", "08000");
    }

    @Override
    public java.lang.String enquoteLiteral(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.enquoteLiteral");
    }

    @Override
    public java.lang.String enquoteIdentifier(java.lang.String a0, boolean a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.enquoteIdentifier");
    }

    @Override
    public boolean isSimpleIdentifier(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.isSimpleIdentifier");
    }

    @Override
    public java.lang.String enquoteNCharLiteral(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.enquoteNCharLiteral");
    }

    @Override
    public <T> T unwrap(java.lang.Class<T> a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.unwrap");
    }

    @Override
    public boolean isWrapperFor(java.lang.Class<?> a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Statement.isWrapperFor");
    }
}
