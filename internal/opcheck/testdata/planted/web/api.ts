import { gql } from "@apollo/client";

const USER_FIELDS = `
      firstName
      emailAddresses
`;

export const PROJECT_BASICS = gql`
  fragment ProjectBasics on ProjectInfo {
    id
    name
  }
`;

// The selection is split by an interpolation of a constant of this file.
export const UserQuery = gql`
  query UserWithFields {
    user {
      ${USER_FIELDS}
      lastNam
    }
    projectInfo { ...ProjectBasics }
  }
  ${PROJECT_BASICS}
`;

export const MissingFragment = gql`
  query TsMissing {
    projectInfo { ...NotDefinedAnywhere }
  }
`;

const ratio = total / count / 2;
