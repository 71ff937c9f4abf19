package testapp.misbehaving;

/**
 * A connection whose every method throws an UnsupportedOperationException, except the statement factories, which return a ThrowingStatement.
 * Generated from {@code javap -public} of java.sql.Connection, java.sql.Wrapper, java.lang.AutoCloseable.
 */
@SuppressWarnings({"deprecation", "unchecked", "rawtypes"})
public final class ThrowingConnection implements java.sql.Connection {

    @Override
    public java.sql.Statement createStatement() throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.lang.String nativeSQL(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.nativeSQL");
    }

    @Override
    public void setAutoCommit(boolean a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setAutoCommit");
    }

    @Override
    public boolean getAutoCommit() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getAutoCommit");
    }

    @Override
    public void commit() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.commit");
    }

    @Override
    public void rollback() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.rollback");
    }

    @Override
    public void close() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.close");
    }

    @Override
    public boolean isClosed() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.isClosed");
    }

    @Override
    public java.sql.DatabaseMetaData getMetaData() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getMetaData");
    }

    @Override
    public void setReadOnly(boolean a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setReadOnly");
    }

    @Override
    public boolean isReadOnly() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.isReadOnly");
    }

    @Override
    public void setCatalog(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setCatalog");
    }

    @Override
    public java.lang.String getCatalog() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getCatalog");
    }

    @Override
    public void setTransactionIsolation(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setTransactionIsolation");
    }

    @Override
    public int getTransactionIsolation() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getTransactionIsolation");
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getWarnings");
    }

    @Override
    public void clearWarnings() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.clearWarnings");
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.util.Map<java.lang.String, java.lang.Class<?>> getTypeMap() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getTypeMap");
    }

    @Override
    public void setTypeMap(java.util.Map<java.lang.String, java.lang.Class<?>> a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setTypeMap");
    }

    @Override
    public void setHoldability(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setHoldability");
    }

    @Override
    public int getHoldability() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getHoldability");
    }

    @Override
    public java.sql.Savepoint setSavepoint() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setSavepoint");
    }

    @Override
    public java.sql.Savepoint setSavepoint(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setSavepoint");
    }

    @Override
    public void rollback(java.sql.Savepoint a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.rollback");
    }

    @Override
    public void releaseSavepoint(java.sql.Savepoint a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.releaseSavepoint");
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1, int a2) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        return new ThrowingStatement();
    }

    @Override
    public java.sql.Clob createClob() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createClob");
    }

    @Override
    public java.sql.Blob createBlob() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createBlob");
    }

    @Override
    public java.sql.NClob createNClob() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createNClob");
    }

    @Override
    public java.sql.SQLXML createSQLXML() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createSQLXML");
    }

    @Override
    public boolean isValid(int a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.isValid");
    }

    @Override
    public void setClientInfo(java.lang.String a0, java.lang.String a1) throws java.sql.SQLClientInfoException {
        throw new UnsupportedOperationException("throwing driver: Connection.setClientInfo");
    }

    @Override
    public void setClientInfo(java.util.Properties a0) throws java.sql.SQLClientInfoException {
        throw new UnsupportedOperationException("throwing driver: Connection.setClientInfo");
    }

    @Override
    public java.lang.String getClientInfo(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getClientInfo");
    }

    @Override
    public java.util.Properties getClientInfo() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getClientInfo");
    }

    @Override
    public java.sql.Array createArrayOf(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createArrayOf");
    }

    @Override
    public java.sql.Struct createStruct(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.createStruct");
    }

    @Override
    public void setSchema(java.lang.String a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setSchema");
    }

    @Override
    public java.lang.String getSchema() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getSchema");
    }

    @Override
    public void abort(java.util.concurrent.Executor a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.abort");
    }

    @Override
    public void setNetworkTimeout(java.util.concurrent.Executor a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setNetworkTimeout");
    }

    @Override
    public int getNetworkTimeout() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.getNetworkTimeout");
    }

    @Override
    public void beginRequest() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.beginRequest");
    }

    @Override
    public void endRequest() throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.endRequest");
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey a0, java.sql.ShardingKey a1, int a2) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setShardingKeyIfValid");
    }

    @Override
    public boolean setShardingKeyIfValid(java.sql.ShardingKey a0, int a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setShardingKeyIfValid");
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey a0, java.sql.ShardingKey a1) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setShardingKey");
    }

    @Override
    public void setShardingKey(java.sql.ShardingKey a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.setShardingKey");
    }

    @Override
    public <T> T unwrap(java.lang.Class<T> a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.unwrap");
    }

    @Override
    public boolean isWrapperFor(java.lang.Class<?> a0) throws java.sql.SQLException {
        throw new UnsupportedOperationException("throwing driver: Connection.isWrapperFor");
    }
}
