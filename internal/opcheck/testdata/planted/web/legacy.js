const query = /* GraphQL */ `
  query Legacy {
    projectInfo {
      id
      nmae
    }
  }
`;

const message = "query failed: {reason}";

module.exports = { query, message };
